import { useEffect, useMemo, useState } from 'react';
import type { ErrorInfo } from '../../shared/contract/errors.ts';
import type { Catalogue, PanelOperationResult } from '../../shared/operations-console.ts';
import type { Panel } from '../../shared/types.ts';
import { usePanels, useWindowContext } from '../window/app-context.tsx';
import { useSelection } from '../panel-list/views.tsx';
import { validateInput } from '../../shared/input-validation.ts';
import { formFields, initialInput } from './schema-form.ts';
import { isSecretKey } from './secret-keys.ts';
import { parseFieldPath } from '../../shared/field-path.ts';
import { failureInfo } from '../window/failure-info.ts';
import { InputForm } from './input-form.tsx';
import { FleetPanelPicker } from './fleet-panel-picker.tsx';
import { FleetResults } from './fleet-results-table.tsx';

const NO_PANELS: readonly Panel[] = [];

/**
 * The same operation on many panels: choose the panels, an operation from the first one's
 * catalogue, its input and the JSON path of the value to show; main runs it a few panels at a
 * time, with progress and Cancel, into a table that sorts and copies as CSV. Writes ask once,
 * listing every panel, typed when a red panel is among them.
 */
export function FleetConsoleView() {
  const { api, locationStore } = useWindowContext();
  const { panels } = usePanels();
  const { marked } = useSelection();
  const signedIn = useMemo(() => (panels ?? NO_PANELS).filter((panel) => panel.signedIn), [panels]);
  const [chosen, setChosen] = useState<ReadonlySet<string>>(
    () => new Set((marked.length > 1 ? marked : signedIn).map((panel) => panel.id)),
  );
  const chosenPanels = useMemo(() => signedIn.filter((panel) => chosen.has(panel.id)), [signedIn, chosen]);
  const first = chosenPanels[0] ?? null;
  const [catalogue, setCatalogue] = useState<Catalogue | null>(null);
  const [catalogueError, setCatalogueError] = useState<ErrorInfo | null>(null);
  const [operationName, setOperationName] = useState('');
  const [input, setInput] = useState<unknown>(undefined);
  const [field, setField] = useState('');
  const [resultsField, setResultsField] = useState<string | null>(null);
  const [attempted, setAttempted] = useState(false);
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [results, setResults] = useState<readonly PanelOperationResult[] | null>(null);
  const [runError, setRunError] = useState<ErrorInfo | null>(null);

  // The catalogue of the first panel chosen names the operations (each panel checks the call against its own).
  const firstId = first?.id ?? null;
  useEffect(() => {
    if (firstId === null) return;
    let current = true;
    setCatalogueError(null);
    api.getOperations(firstId).then(
      (answer) => current && setCatalogue(answer),
      (caught: unknown) => current && setCatalogueError(failureInfo(caught)),
    );
    return () => {
      current = false;
    };
  }, [api, firstId]);

  // Each panel's result as it ends, in the order they end; the final answer puts them in the order asked.
  useEffect(
    () =>
      api.onEvent((event) => {
        if (event.type !== 'operationProgress') return;
        setProgress({ done: event.done, total: event.total });
        setResults((before) => [...(before ?? []).filter((result) => result.panelId !== event.result.panelId), event.result]);
      }),
    [api],
  );

  const operation = catalogue?.operations.find((item) => item.name === operationName.trim()) ?? null;
  const fields = useMemo(() => (operation ? formFields(operation.input, isSecretKey) : []), [operation]);
  const errors = useMemo(() => (operation ? validateInput(operation.input, input) : []), [operation, input]);
  const fieldOk = parseFieldPath(field) !== null;
  const running = progress !== null && results !== null && progress.done < progress.total;

  const pick = (name: string) => {
    setOperationName(name);
    const next = catalogue?.operations.find((item) => item.name === name.trim());
    if (next && next.name !== operation?.name) {
      setInput(initialInput(next.input, formFields(next.input, isSecretKey)));
      setAttempted(false);
    }
  };
  const send = async (allowWrite: boolean) => {
    if (!operation) return;
    setRunError(null);
    // An empty path is the whole answer (as the docs say); the results keep the path they were read at.
    const runField = field.trim() === '' ? '$' : field.trim();
    setResultsField(runField);
    setResults([]);
    setProgress({ done: 0, total: chosenPanels.length });
    try {
      const all = await api.callOperationOnPanels(
        chosenPanels.map((panel) => panel.id),
        // A write is asked about once, in main's own confirmation, with every panel it goes to.
        { operation: operation.name, input, shownAs: operation.kind },
        { field: runField, allowWrite },
      );
      setResults(all);
      setProgress({ done: all.length, total: all.length });
    } catch (caught) {
      setRunError(failureInfo(caught));
      setProgress(null);
    }
  };
  const run = () => {
    setAttempted(true);
    if (!operation || errors.length > 0 || !fieldOk || chosenPanels.length === 0 || running) return;
    void send(operation.kind === 'write');
  };

  return (
    <section className="fleet-console" aria-labelledby="fleet-console-title">
      <header className="activity-header">
        <h1 id="fleet-console-title">Console across panels</h1>
        <button type="button" onClick={() => locationStore.show('panels')}>
          Back to the panel
        </button>
      </header>
      <p className="muted">
        One operation on each panel chosen, a few at a time, each with the token Paneldeck keeps for it. The table shows each panel's
        status, time and the value at the JSON path you give.
      </p>
      <div className="fleet-console-grid">
        <FleetPanelPicker panels={signedIn} chosen={chosen} onChosen={setChosen} />
        <form
          className="console-request"
          aria-label="The operation to run"
          onSubmit={(event) => {
            event.preventDefault();
            run();
          }}
        >
          <div className="field">
            <label className="field-label" htmlFor="fleet-operation">
              Operation {first && <span className="muted">(from {first.name}’s catalogue)</span>}
            </label>
            <input
              id="fleet-operation"
              list="fleet-operations"
              spellCheck={false}
              autoComplete="off"
              value={operationName}
              onChange={(event) => pick(event.target.value)}
            />
            <datalist id="fleet-operations">
              {catalogue?.operations.map((item) => (
                <option key={item.name} value={item.name}>
                  {item.kind === 'read' ? 'Read' : 'Write'}
                  {item.summary ? `: ${item.summary}` : ''}
                </option>
              ))}
            </datalist>
            {catalogueError && <p className="field-error">{catalogueError.message}</p>}
            {operationName.trim() !== '' && catalogue && !operation && (
              <p className="field-error">Not an operation of {first?.name}’s catalogue.</p>
            )}
            {operation && (
              <p className="field-hint">
                <span className={`console-kind console-kind-${operation.kind}`}>{operation.kind === 'read' ? 'Read' : 'Write'}</span>{' '}
                {operation.summary ?? ''}
              </p>
            )}
          </div>
          {operation && (
            <InputForm
              schema={operation.input}
              fields={fields}
              input={input}
              onInput={setInput}
              errors={attempted ? errors : errors.filter((error) => error.message !== 'Required.')}
            />
          )}
          <div className="field">
            <label className="field-label" htmlFor="fleet-field">
              Value to show (JSON path)
            </label>
            <input
              id="fleet-field"
              spellCheck={false}
              placeholder="e.g. version, or projects.length, or 0.name"
              value={field}
              onChange={(event) => setField(event.target.value)}
            />
          </div>
          <div className="form-actions">
            {progress && results && (
              <span className="fleet-progress">
                <progress max={progress.total} value={progress.done} aria-label="Panels done" />
                <span role="status">
                  {progress.done} of {progress.total}
                </span>
                {running && (
                  <button
                    type="button"
                    className="button-small"
                    onClick={() => void api.cancelOperationRun().catch((caught: unknown) => setRunError(failureInfo(caught)))}
                  >
                    Cancel
                  </button>
                )}
              </span>
            )}
            <button type="submit" className="button-primary" disabled={!operation || chosenPanels.length === 0 || running}>
              {operation?.kind === 'write' ? `Run on ${chosenPanels.length} panels…` : `Run on ${chosenPanels.length} panels`}
            </button>
          </div>
          {attempted && errors.length > 0 && <p className="field-error">The input needs attention before it is sent.</p>}
          {runError && (
            // A no in main's confirmation is the operator's choice: said, not shown as an error.
            <div className={`notice ${runError.code === 'NOT_CONFIRMED' ? 'notice-info' : 'notice-error'}`} role="alert">
              <p>{runError.message}</p>
            </div>
          )}
        </form>
      </div>
      {results && results.length > 0 && <FleetResults results={results} field={resultsField} />}
    </section>
  );
}
