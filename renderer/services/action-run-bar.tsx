import { SERVICE_ACTION_LABELS } from '../../shared/service-actions.ts';
import { usePanels, useServiceActions } from '../window/app-context.tsx';
import type { ServiceRun } from '../window/service-action-store.ts';
import { formatCount } from '../ui/json-rows.ts';
import { endedCount, runSummary } from './all-services-actions.ts';

interface RunProgressProps {
  run: ServiceRun;
  /** What the progress bar is of, for a screen reader ("Restart across panels"). */
  label: string;
  onCancel(): void;
}

/** The run under way: n of N ended, and Cancel (the services not started yet are not sent). */
export function RunProgress({ run, label, onCancel }: RunProgressProps) {
  const { states } = useServiceActions();
  const action = SERVICE_ACTION_LABELS[run.action];
  const total = run.keys.length;
  const ended = endedCount(run.keys, states, run.action);
  return (
    <div className="notice notice-info fleet-run">
      <progress max={total} value={ended} aria-label={label} />
      <p role="status">
        {action}: {formatCount(ended)} of {formatCount(total)} ended.{' '}
        {run.cancelling
          ? 'Cancelling: the services not started yet are not sent; those already sent finish.'
          : 'Cancel stops the services not started yet; those already sent finish.'}
      </p>
      <button type="button" onClick={onCancel} disabled={run.cancelling}>
        Cancel
      </button>
    </div>
  );
}

interface FleetRunBarProps {
  run: ServiceRun;
  onCancel(): void;
  onDismiss(): void;
}

/** All services' run: under way (whichever view started it), then its summary with the panels' words for failures. */
export function FleetRunBar({ run, onCancel, onDismiss }: FleetRunBarProps) {
  const { byId } = usePanels();
  const { states } = useServiceActions();
  const outcome = runSummary(run, states, (id) => byId.get(id)?.name ?? 'A removed panel');
  if (outcome === null) return <RunProgress run={run} label={`${SERVICE_ACTION_LABELS[run.action]} across panels`} onCancel={onCancel} />;
  return (
    <div className={`notice fleet-run ${outcome.failed ? 'notice-error' : 'notice-info'}`} role={outcome.failed ? 'alert' : 'status'}>
      <p>{outcome.text}</p>
      <button type="button" onClick={onDismiss}>
        Dismiss
      </button>
    </div>
  );
}
