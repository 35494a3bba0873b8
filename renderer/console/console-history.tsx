import { useState, useSyncExternalStore } from 'react';
import { useNow, useWindowContext } from '../window/app-context.tsx';
import { useConsoleStore } from './console-store-context.tsx';
import type { HistoryEntry, SavedRequest } from './console-memory.ts';
import { exportRequests, importRequests } from './request-transfer.ts';
import { copyText } from '../ui/copy-text.ts';
import { failureInfo } from '../window/failure-info.ts';
import { whenText } from '../activity/index.ts';
import { statusKind } from './operation-answer.tsx';

/** The console's remembered parts, read from the window's console store. */
export function useConsoleMemory() {
  const consoleStore = useConsoleStore();
  return useSyncExternalStore(consoleStore.subscribe, consoleStore.getSnapshot);
}

const NO_HISTORY: readonly HistoryEntry[] = [];

/** What was called on this panel, newest first: its outcome, and its answer when the operator kept it. */
export function ConsoleHistory({
  panelId,
  onUse,
  onShowAnswer,
}: {
  panelId: string;
  onUse(entry: HistoryEntry): void;
  onShowAnswer(entry: HistoryEntry): void;
}) {
  const history = useConsoleMemory().history[panelId] ?? NO_HISTORY;
  const now = useNow();
  return (
    <section className="console-side" aria-labelledby="console-history-title">
      <h3 id="console-history-title" className="console-subtitle">
        History
      </h3>
      {history.length === 0 ? (
        <p className="muted">Each call made here is listed, newest first. Answers are kept only when you save them.</p>
      ) : (
        <ul className="console-history" aria-label="Calls made on this panel, newest first">
          {history.map((entry) => (
            <li key={entry.id} className="console-history-row">
              <span className={`console-outcome console-outcome-${entry.ok ? statusKind(entry.status) : 'failed'}`}>
                {entry.status ?? 'failed'}
              </span>
              <span className="console-history-name" title={entry.message ?? entry.operation}>
                {entry.operation}
              </span>
              <time className="muted" dateTime={entry.at}>
                {whenText(new Date(entry.at), new Date(now))}
              </time>
              <span className="console-history-actions">
                <button
                  type="button"
                  className="button-small"
                  onClick={() => onUse(entry)}
                  aria-label={`Use again: ${entry.operation} of ${entry.at}`}
                >
                  Use again
                </button>
                {entry.answer !== undefined && (
                  <button type="button" className="button-small" onClick={() => onShowAnswer(entry)}>
                    Saved answer
                  </button>
                )}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

interface SavedRequestsProps {
  /** The request being edited, offered for saving; null when no operation is chosen. */
  current: { operation: string; input: unknown } | null;
  onUse(request: SavedRequest): void;
}

/** Requests saved by name (any panel can run them), exported to and imported from JSON without secrets. */
export function SavedRequests({ current, onUse }: SavedRequestsProps) {
  const { api } = useWindowContext();
  const consoleStore = useConsoleStore();
  const { saved } = useConsoleMemory();
  const [name, setName] = useState('');
  const [note, setNote] = useState('');
  const [importing, setImporting] = useState<string | null>(null);
  const save = () => {
    if (!current || name.trim() === '') return;
    const refused = consoleStore.saveRequest({ id: crypto.randomUUID(), name: name.trim(), ...current });
    setNote(refused ?? `Saved as ${name.trim()} (secret values are not kept).`);
    if (!refused) setName('');
  };
  const exportAll = async () => {
    const copied = await copyText(exportRequests(saved));
    setNote(
      copied
        ? `Copied ${saved.length} saved request${saved.length === 1 ? '' : 's'} as JSON, without secret values.`
        : 'Could not copy: the clipboard is not available.',
    );
  };
  const saveToFile = async () => {
    try {
      const name = `paneldeck-requests-${new Date().toISOString().slice(0, 10)}.json`;
      const { path } = await api.saveTextFile({ name, text: exportRequests(saved) });
      setNote(
        path === null ? 'Not saved.' : `Saved ${saved.length} request${saved.length === 1 ? '' : 's'} to ${path}, without secret values.`,
      );
    } catch (caught) {
      setNote(failureInfo(caught).message);
    }
  };
  const openFile = async () => {
    try {
      const opened = await api.openTextFile('json');
      if (opened) importFrom(opened.text);
    } catch (caught) {
      setNote(failureInfo(caught).message);
    }
  };
  const importText = () => {
    if (importing !== null) importFrom(importing);
  };
  const importFrom = (text: string) => {
    const result = importRequests(text);
    const refusals = consoleStore.importRequests(result.requests);
    const lines = [
      `Imported ${result.requests.length - refusals.length} request${result.requests.length - refusals.length === 1 ? '' : 's'}.`,
      ...result.problems,
      ...refusals,
      ...(result.needSecrets.length > 0 ? [`Type the secret values again before running: ${result.needSecrets.join(', ')}.`] : []),
    ];
    setNote(lines.join(' '));
    if (result.problems.length === 0 || result.requests.length > 0) setImporting(null);
  };
  return (
    <section className="console-side" aria-labelledby="console-saved-title">
      <h3 id="console-saved-title" className="console-subtitle">
        Saved requests
      </h3>
      {current && (
        <form
          className="console-save"
          onSubmit={(event) => {
            event.preventDefault();
            save();
          }}
        >
          <input
            aria-label="Name of the saved request"
            placeholder="Name this request"
            value={name}
            onChange={(event) => setName(event.target.value)}
          />
          <button type="submit" className="button-small" disabled={name.trim() === ''}>
            Save request
          </button>
        </form>
      )}
      {saved.length > 0 && (
        <ul className="console-saved" aria-label="Saved requests">
          {saved.map((request) => (
            <li key={request.id} className="console-history-row">
              <span className="console-history-name" title={request.operation}>
                {request.name} <span className="muted">{request.operation}</span>
              </span>
              <span className="console-history-actions">
                <button type="button" className="button-small" onClick={() => onUse(request)}>
                  Use
                </button>
                <button
                  type="button"
                  className="button-small"
                  aria-label={`Delete ${request.name}`}
                  onClick={() => consoleStore.removeRequest(request.id)}
                >
                  Delete
                </button>
              </span>
            </li>
          ))}
        </ul>
      )}
      <div className="console-transfer">
        <button type="button" className="button-small" disabled={saved.length === 0} onClick={() => void saveToFile()}>
          Save to file…
        </button>
        <button type="button" className="button-small" disabled={saved.length === 0} onClick={() => void exportAll()}>
          Copy as JSON
        </button>
        <button type="button" className="button-small" onClick={() => void openFile()}>
          Open file…
        </button>
        <button
          type="button"
          className="button-small"
          aria-expanded={importing !== null}
          onClick={() => setImporting(importing === null ? '' : null)}
        >
          Paste…
        </button>
      </div>
      {importing !== null && (
        <div className="field">
          <label className="field-label" htmlFor="console-import">
            Paste saved requests (JSON)
          </label>
          <textarea
            id="console-import"
            className="console-json"
            rows={5}
            spellCheck={false}
            value={importing}
            onChange={(event) => setImporting(event.target.value)}
          />
          <div className="form-actions">
            <button type="button" className="button-small" disabled={importing.trim() === ''} onClick={importText}>
              Import
            </button>
          </div>
        </div>
      )}
      <p className="muted" role="status">
        {note}
      </p>
    </section>
  );
}
