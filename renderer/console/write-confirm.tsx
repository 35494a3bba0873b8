import { plural } from '../../shared/counts.ts';
import type { Panel } from '../../shared/types.ts';
import { typedConfirmation } from './console-writes.ts';
import { maskInput } from './secret-mask.ts';
import { ConfirmDialog } from '../ui/confirm-dialog.tsx';

interface WriteConfirmProps {
  /** The panels the write goes to: one from a panel's console, several from a read across panels. */
  panels: readonly Pick<Panel, 'id' | 'name' | 'address' | 'colour'>[];
  operation: string;
  input: unknown;
  onConfirm(): void;
  onCancel(): void;
}

/** Lines of the input shown at most; the rest is said to be there. */
const INPUT_LINES = 40;

/**
 * The one question before a write: exactly which operation, on which panel or panels, with what
 * input (secret values masked here too). Typed when a red panel is among them.
 */
export function WriteConfirm({ panels, operation, input, onConfirm, onCancel }: WriteConfirmProps) {
  const expected = typedConfirmation(panels);
  const only = panels.length === 1 ? panels[0]! : null;
  const lines = input === undefined ? [] : (JSON.stringify(maskInput(input), null, 2) ?? '').split('\n');
  const red = panels.filter((panel) => panel.colour === 'red');
  return (
    <ConfirmDialog
      className="service-action-dialog console-write-dialog"
      title={only ? `Run ${operation} on ${only.name}?` : `Run ${operation} on ${plural(panels.length, 'panel')}?`}
      confirmLabel={only ? `Run ${operation}` : `Run on ${plural(panels.length, 'panel')}`}
      effect={
        <p>
          <strong>{operation}</strong> is a write: it changes{' '}
          {only ? `the panel ${only.name} (${only.address})` : `each of these ${panels.length} panels`}. Paneldeck sends it once
          {only ? '' : ' to each, a few at a time'}, never again on its own, and records it in the activity log.
        </p>
      }
      targets={
        !only && (
          <ul className="console-write-panels" aria-label="The panels written to">
            {panels.map((panel) => (
              <li key={panel.id}>
                {panel.name} <span className="muted">{panel.address}</span>
                {panel.colour === 'red' && <span className="status-badge console-red">production</span>}
              </li>
            ))}
          </ul>
        )
      }
      details={
        lines.length === 0 ? (
          <p className="muted">With no input.</p>
        ) : (
          <>
            <p>With this input:</p>
            <pre className="console-write-input">
              {lines.slice(0, INPUT_LINES).join('\n')}
              {lines.length > INPUT_LINES && `\n… and ${lines.length - INPUT_LINES} more lines`}
            </pre>
          </>
        )
      }
      typedName={
        expected === null
          ? null
          : {
              expected,
              notice: (
                <>
                  {red.length === 1
                    ? `${red[0]!.name} is marked red: production.`
                    : `${red.length} of these panels are marked red: production.`}{' '}
                  {red.length === 1
                    ? `Type its name, ${expected}, to run ${operation}.`
                    : `Type the number of panels, ${expected}, to run ${operation} on them.`}
                </>
              ),
              label: red.length === 1 ? 'Panel name' : 'Number of panels',
              name: 'confirm-write',
            }
      }
      onConfirm={onConfirm}
      onCancel={onCancel}
    />
  );
}
