import { useCallback, useEffect, useMemo, useState } from 'react';
import type { ErrorInfo } from '../../shared/contract/errors.ts';
import type { Catalogue, CatalogueOperation, OperationAnswer } from '../../shared/operations-console.ts';
import type { Panel } from '../../shared/types.ts';
import { useWindowContext } from '../window/app-context.tsx';
import { useConsoleStore } from './console-store-context.tsx';
import { formatBytes } from '../../shared/sizes.ts';
import { type HistoryEntry, MAX_SAVED_ANSWER_BYTES } from './console-memory.ts';
import { validateInput, type InputIssue } from '../../shared/input-validation.ts';
import { formFields, initialInput } from './schema-form.ts';
import { isSecretKey } from './secret-keys.ts';
import { maskedInputPaths } from './secret-mask.ts';
import { failureInfo } from '../window/failure-info.ts';
import { ReadStates } from '../ui/read-states.tsx';
import { ConsoleHistory, SavedRequests } from './console-history.tsx';
import { InputForm } from './input-form.tsx';
import { OperationAnswerView, statusKind } from './operation-answer.tsx';
import { OperationList } from './operation-list.tsx';

/** The answer shown: the last call's, or one kept in the history. */
interface Shown {
  entryId: string;
  answer: OperationAnswer;
  /** Kept in the history already (a saved answer shown again, or saved meanwhile). */
  saved: boolean;
}

/** Every input error, plus the secret values a saved request left out (typed again before a run). */
function inputErrors(operation: CatalogueOperation, input: unknown): InputIssue[] {
  const leftOut = maskedInputPaths(input).map((path) => ({ path, message: 'A secret left out of the saved request: type it again.' }));
  return [...leftOut, ...validateInput(operation.input, input)];
}

/**
 * A panel's API console: its catalogue (read by main from the panel's /api/openapi.json with the
 * token main keeps), a form per operation, Run (main asks before a write), the answer with secrets
 * masked, this panel's history and the saved requests.
 */
export function ConsoleTab({ panel }: { panel: Panel }) {
  const { api } = useWindowContext();
  const consoleStore = useConsoleStore();
  const [catalogue, setCatalogue] = useState<Catalogue | null>(null);
  const [loadError, setLoadError] = useState<ErrorInfo | null>(null);
  const [attempt, setAttempt] = useState(0);
  const [operation, setOperation] = useState<CatalogueOperation | null>(null);
  const [input, setInput] = useState<unknown>(undefined);
  const [attempted, setAttempted] = useState(false);
  const [running, setRunning] = useState(false);
  const [callError, setCallError] = useState<ErrorInfo | null>(null);
  const [shown, setShown] = useState<Shown | null>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: read again at each Try again
  useEffect(() => {
    let current = true;
    setLoadError(null);
    api.getOperations(panel.id).then(
      (answer) => current && setCatalogue(answer),
      (caught: unknown) => current && setLoadError(failureInfo(caught)),
    );
    return () => {
      current = false;
    };
  }, [api, panel.id, attempt]);

  const fields = useMemo(() => (operation ? formFields(operation.input, isSecretKey) : []), [operation]);
  const errors = useMemo(() => (operation ? inputErrors(operation, input) : []), [operation, input]);
  // Until a Run, a field says what is wrong with what was typed, not that it is still empty.
  const shownErrors = attempted ? errors : errors.filter((error) => error.message !== 'Required.');

  const choose = useCallback((next: CatalogueOperation, nextInput?: unknown) => {
    setOperation(next);
    setInput(nextInput !== undefined ? nextInput : initialInput(next.input, formFields(next.input, isSecretKey)));
    setAttempted(false);
    setCallError(null);
  }, []);
  const byName = (name: string) => catalogue?.operations.find((item) => item.name === name) ?? null;
  const takeRequest = (name: string, requestInput: unknown) => {
    const found = byName(name);
    if (found) choose(found, requestInput ?? initialInput(found.input, formFields(found.input, isSecretKey)));
    else setCallError({ code: 'NOT_FOUND', message: `This panel's catalogue has no operation ${name}.` });
  };

  const send = async (chosen: CatalogueOperation, sent: unknown) => {
    setRunning(true);
    setCallError(null);
    const entryId = crypto.randomUUID();
    const at = new Date().toISOString();
    const record = (fields: Pick<HistoryEntry, 'status' | 'ok' | 'ms' | 'bytes' | 'message'>) =>
      consoleStore.record(panel.id, { id: entryId, operation: chosen.name, at, input: sent, ...fields });
    try {
      // A write is asked about once, in main's own confirmation; `shownAs` lets main refuse one shown here as a read.
      const answer = await api.callOperation(panel.id, { operation: chosen.name, input: sent, shownAs: chosen.kind });
      record({ status: answer.status, ok: statusKind(answer.status) === 'ok', ms: answer.ms, bytes: answer.bytes, message: null });
      setShown({ entryId, answer, saved: false });
    } catch (caught) {
      const info = failureInfo(caught);
      record({ status: null, ok: false, ms: null, bytes: null, message: info.message });
      setCallError(info);
    } finally {
      setRunning(false);
    }
  };
  const run = () => {
    if (!operation || running) return;
    setAttempted(true);
    if (errors.length > 0) return;
    void send(operation, input);
  };
  const showSaved = (entry: HistoryEntry) =>
    setShown({
      entryId: entry.id,
      saved: true,
      answer: {
        panelId: panel.id,
        operation: entry.operation,
        status: entry.status ?? 0,
        ms: entry.ms ?? 0,
        bytes: entry.bytes ?? 0,
        body: entry.answer,
        text: null,
        truncated: false,
      },
    });

  return (
    <ReadStates
      error={loadError}
      onRetry={() => setAttempt((count) => count + 1)}
      reading={catalogue === null ? 'Reading the panel’s catalogue…' : null}
      empty={null}
    >
      {catalogue && (
        <div className="console">
          <OperationList catalogue={catalogue} selected={operation?.name ?? null} onSelect={(next) => choose(next)} />
          <div className="console-main">
            {operation ? (
              <form
                className="console-request"
                aria-label={`Request ${operation.name}`}
                onSubmit={(event) => {
                  event.preventDefault();
                  run();
                }}
              >
                <div className="section-bar">
                  <h2 className="console-title">
                    <span className={`console-kind console-kind-${operation.kind}`}>{operation.kind === 'read' ? 'Read' : 'Write'}</span>{' '}
                    {operation.name}
                  </h2>
                </div>
                {operation.summary && <p className="muted">{operation.summary}</p>}
                <InputForm schema={operation.input} fields={fields} input={input} onInput={setInput} errors={shownErrors} />
                <div className="form-actions console-run">
                  {attempted && errors.length > 0 && (
                    <span className="field-error" role="alert">
                      {errors.length === 1 ? 'One field needs attention.' : `${errors.length} fields need attention.`}
                    </span>
                  )}
                  <button type="submit" className="button-primary" disabled={running}>
                    {running ? 'Running…' : operation.kind === 'write' ? 'Run…' : 'Run'}
                  </button>
                </div>
              </form>
            ) : (
              <p className="muted console-hint">
                Pick an operation: {catalogue.operations.length} from this panel’s own catalogue ({generationName(catalogue.generation)}
                {catalogue.version ? `, ${catalogue.version}` : ''}). Reads change nothing; a write is asked about in Paneldeck’s own
                confirmation and recorded in the activity log.
              </p>
            )}
            {callError && (
              // A no in main's confirmation is the operator's choice: said, not shown as an error.
              <div
                className={`notice ${callError.code === 'NOT_CONFIRMED' ? 'notice-info' : callError.code === 'OUTCOME_UNKNOWN' ? 'notice-warning' : 'notice-error'}`}
                role="alert"
              >
                <p>{callError.message}</p>
              </div>
            )}
            {shown && (
              <OperationAnswerView
                key={shown.entryId}
                answer={shown.answer}
                onSave={
                  shown.saved
                    ? null
                    : () => {
                        // Measured by main's count first: a 4 MiB answer is not copied and masked only to be refused.
                        if (shown.answer.bytes > MAX_SAVED_ANSWER_BYTES)
                          return `This answer is ${formatBytes(shown.answer.bytes)}; answers up to ${formatBytes(MAX_SAVED_ANSWER_BYTES)} are kept. Copy it instead.`;
                        const refused = consoleStore.saveAnswer(panel.id, shown.entryId, shown.answer.body ?? shown.answer.text);
                        if (!refused) setShown({ ...shown, saved: true });
                        return refused;
                      }
                }
              />
            )}
          </div>
          <aside className="console-aside" aria-label="History and saved requests">
            <ConsoleHistory panelId={panel.id} onUse={(entry) => takeRequest(entry.operation, entry.input)} onShowAnswer={showSaved} />
            <SavedRequests
              current={operation && { operation: operation.name, input }}
              onUse={(request) => takeRequest(request.operation, request.input)}
            />
          </aside>
        </div>
      )}
    </ReadStates>
  );
}

export function generationName(generation: Catalogue['generation']): string {
  return generation === 'trpc' ? 'tRPC' : generation === 'rpc' ? 'RPC' : 'public API';
}
