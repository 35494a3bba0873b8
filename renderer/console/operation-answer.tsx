import { useCallback, useMemo, useState } from 'react';
import type { OperationAnswer } from '../../shared/operations-console.ts';
import { formatBytes } from '../../shared/sizes.ts';
import { answerMask, maskedJson, type Revealed, withRevealed } from './secret-mask.ts';
import { copyText } from '../ui/copy-text.ts';
import type { Branch } from '../ui/json-rows.ts';
import { JsonTree } from '../ui/json-tree.tsx';

interface OperationAnswerProps {
  answer: OperationAnswer;
  /** Keeps this answer in the panel's history (masked); null when it is kept already. */
  onSave: (() => string | null) | null;
}

const NO_REVEALED: Revealed = new Map();

/** Ok for 2xx, else the panel said no. */
export const statusKind = (status: number | null) => (status !== null && status >= 200 && status < 300 ? 'ok' : 'failed');

/**
 * An operation's answer: status, time and size, then the JSON tree. Secret fields show masked until
 * the operator reveals each one (the tree asks only of the rows on screen, so a 4 MiB answer costs
 * what is shown); Copy copies the JSON with every value not revealed still masked.
 */
export function OperationAnswerView({ answer, onSave }: OperationAnswerProps) {
  const [revealed, setRevealed] = useState<Revealed>(NO_REVEALED);
  const [note, setNote] = useState('');
  const mask = useMemo(() => answerMask(revealed), [revealed]);
  // Stable across reveals: rows that did not change keep their DOM.
  const maskedAction = useCallback(
    (parent: Branch | null, name: string | null) =>
      parent && name !== null ? (
        <button
          type="button"
          className="json-action"
          aria-label={`Reveal ${name}`}
          onClick={() => setRevealed((before) => withRevealed(before, parent, name))}
        >
          Reveal
        </button>
      ) : null,
    [],
  );
  const copy = async () => {
    const text = answer.body === null ? (answer.text ?? '') : maskedJson(answer.body, revealed);
    setNote(
      (await copyText(text))
        ? 'Copied, with the secret values not revealed still masked.'
        : 'Could not copy: the clipboard is not available.',
    );
  };
  const save = () => {
    if (!onSave) return;
    setNote(onSave() ?? 'Kept with this call in the history (secret values masked).');
  };
  const kind = statusKind(answer.status);
  return (
    <section className="console-answer" aria-label="Answer">
      <div className="section-bar">
        <h3 className="console-subtitle">Answer</h3>
        <span className={`status-badge console-status status-${kind === 'ok' ? 'signed-in' : 'check-failed'}`}>{answer.status}</span>
        <span className="muted">
          {Math.round(answer.ms).toLocaleString('en')} ms · {formatBytes(answer.bytes)}
        </span>
        <span className="console-answer-tools">
          {revealed.size > 0 && (
            <button type="button" className="button-small" onClick={() => setRevealed(NO_REVEALED)}>
              Hide all
            </button>
          )}
          <button type="button" className="button-small" onClick={() => void copy()}>
            Copy
          </button>
          {onSave && (
            <button type="button" className="button-small" onClick={save}>
              Save answer
            </button>
          )}
        </span>
      </div>
      <p className="muted" role="status">
        {note}
      </p>
      {answer.truncated && <p className="notice notice-warning">The answer was larger than Paneldeck reads: its start is shown as text.</p>}
      {answer.body === null ? (
        answer.text ? (
          <pre className="console-text">{answer.text}</pre>
        ) : (
          <p className="muted">The panel answered with no body.</p>
        )
      ) : (
        <JsonTree value={answer.body} label="The answer" mask={mask} maskedAction={maskedAction} />
      )}
    </section>
  );
}
