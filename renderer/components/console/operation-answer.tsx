import { useCallback, useMemo, useState } from 'react';
import type { OperationAnswer } from '../../../shared/operations-console.ts';
import { formatBytes } from '../../../shared/sizes.ts';
import { findSecrets, maskAnswer } from '../../console/secret-mask.ts';
import { copyText } from '../../copy-text.ts';
import type { Branch } from '../../json-rows.ts';
import { JsonTree } from '../json-tree.tsx';

interface OperationAnswerProps {
  answer: OperationAnswer;
  /** Keeps this answer in the panel's history (masked); null when it is kept already. */
  onSave: (() => string | null) | null;
}

const NO_REVEALED: ReadonlySet<string> = new Set();

/** Ok for 2xx, else the panel said no. */
export const statusKind = (status: number | null) => (status !== null && status >= 200 && status < 300 ? 'ok' : 'failed');

/**
 * An operation's answer: status, time and size, then the JSON tree. Secret fields show masked until
 * the operator reveals each one; Copy copies what is shown (a masked value stays masked).
 */
export function OperationAnswerView({ answer, onSave }: OperationAnswerProps) {
  const [revealed, setRevealed] = useState<ReadonlySet<string>>(NO_REVEALED);
  const [note, setNote] = useState('');
  const secrets = useMemo(() => findSecrets(answer.body), [answer.body]);
  const masked = useMemo(() => maskAnswer(answer.body, secrets, revealed), [answer.body, secrets, revealed]);
  const reveal = useCallback((id: string) => setRevealed((before) => new Set(before).add(id)), []);
  const maskedAction = useCallback(
    (parent: Branch | null, name: string | null) => {
      const id = parent && name !== null ? masked.places.get(parent)?.get(name) : undefined;
      if (id === undefined) return null;
      return (
        <button type="button" className="json-action" aria-label={`Reveal ${id}`} onClick={() => reveal(id)}>
          Reveal
        </button>
      );
    },
    [masked, reveal],
  );
  const copy = async () => {
    const text = answer.body === null ? (answer.text ?? '') : JSON.stringify(masked.value, null, 2);
    setNote(
      (await copyText(text))
        ? masked.masked > 0
          ? 'Copied, with the hidden values still masked.'
          : 'Copied.'
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
          {secrets.length > 0 && (
            <span className="muted">
              {masked.masked === 0
                ? `${secrets.length} secret value${secrets.length === 1 ? '' : 's'} shown`
                : `${masked.masked} secret value${masked.masked === 1 ? '' : 's'} hidden`}
            </span>
          )}
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
        <JsonTree value={masked.value} label="The answer" maskedAction={maskedAction} />
      )}
    </section>
  );
}
