import type { Envelope } from '../../../shared/contract/contract.ts';
import { settle } from '../../../shared/contract/envelope.ts';
import type { ErrorInfo } from '../../../shared/contract/errors.ts';
import { type FieldPathSegment, parseFieldPath, valueAtPath } from '../../../shared/field-path.ts';
import { CELL_VALUE_MAX_CHARS, type PanelOperationResult } from '../../../shared/operations-console.ts';
import { secretFieldPaths } from '../../../shared/secret-fields.ts';
import { DEFAULT_SETTINGS } from '../../../shared/settings.ts';
import { copyJson } from '../../../shared/json-copy.ts';
import { PanelPass } from '../schedule/panel-pass.ts';
import { type Cancellable, RunHolder } from '../schedule/run-holder.ts';
import { PanelError } from '../../../shared/contract/errors.ts';
import { plural } from '../../../shared/counts.ts';
import { askToConfirm, type ConfirmWrite } from '../writes/confirmation.ts';
import type { ConsoleCalls, PreparedCall as Prepared } from './console-calls.ts';
import { describeStatus } from '../easypanel/panel-responses.ts';
import type { CoreMethods, Emit, OpenedFolder } from '../context/core-context.ts';

/** What a run across panels uses: the folder (the concurrency setting), the clock, the window's progress events, main's confirmation. */
export interface OperationRunParts extends OpenedFolder {
  now(): Date;
  emit: Emit;
  confirmWrite?: ConfirmWrite | undefined;
}

const ALREADY_RUNNING =
  'Paneldeck is already calling an operation on several panels. Wait for that to finish, or cancel it, before starting another.';
const CANCELLED_MESSAGE = 'Not sent: the run was cancelled before this panel was reached.';
/** Put in place of a secret field inside a cell's JSON text: a cell cannot reveal, the answer of one panel can. */
const MASKED = '•••';

/**
 * The same operation on many panels (`callOperationOnPanels`), in a panel pass of its own (the
 * check concurrency setting): each panel's call prepared first (its own catalogue, the input
 * validated against its schema); where it is a write on some panel, those panels' writes are one
 * plan, asked once in main's own confirmation (and refused unsent when the run was asked for
 * reads only); then each call sent, results in the order asked, `operationProgress` as each panel
 * ends. Cancel starts no more and aborts the reads in flight; a write already sent is left to finish.
 */
export function operationRunMethods(
  { opened, now, emit, confirmWrite }: OperationRunParts,
  calls: ConsoleCalls,
): CoreMethods<'callOperationOnPanels' | 'cancelOperationRun'> {
  const runs = new RunHolder<Cancellable>(ALREADY_RUNNING);
  return {
    async callOperationOnPanels(requested, call, { field, allowWrite = false }) {
      const path = field === null ? null : parseFieldPath(field);
      const ids = [...new Set(requested)];
      let done = 0;
      const progress = (result: PanelOperationResult) => {
        done++;
        try {
          emit({ type: 'operationProgress', result, done, total: ids.length });
        } catch {
          // A window that is gone must not stop the run.
        }
        return result;
      };
      const cancelledResult = (panelId: string): PanelOperationResult =>
        progress({ panelId, outcome: 'cancelled', status: null, ms: null, value: null, message: CANCELLED_MESSAGE });
      const concurrency = () => opened()?.settings.get().checkConcurrency ?? DEFAULT_SETTINGS.checkConcurrency;
      let pass: PanelPass<PanelAnswerOf<Prepared>> | PanelPass<PanelOperationResult> | null = null;
      let cancelling = false;
      const held: Cancellable = {
        cancel: () => {
          cancelling = true;
          pass?.cancel();
        },
      };
      return runs.hold(
        () => held,
        async () => {
          // Each panel's call prepared: a catalogue read, nothing sent to the operation yet.
          const preparing = new PanelPass<PanelAnswerOf<Prepared>>({
            concurrency,
            runOne: async (panelId) => ({ panelId, prepared: await settle(() => calls.prepare(panelId, call)) }),
            cancelled: (panelId) => ({ panelId, prepared: null }),
            now,
          });
          pass = preparing;
          const prepared = await preparing.run(ids);
          const writes = prepared.flatMap(({ prepared: one }) => (one?.ok && one.value.operation.kind === 'write' ? [one.value] : []));
          const refused = new Set<string>();
          if (writes.length > 0 && !allowWrite) for (const one of writes) refused.add(one.panelId);
          if (writes.length > 0 && allowWrite && !cancelling) {
            const name = writes[0]!.operation.name;
            await askToConfirm(confirmWrite, calls.plan(writes, `send ${name} to ${plural(writes.length, 'panel')}`));
          }
          const sending = new PanelPass<PanelOperationResult>({
            concurrency,
            runOne: async (panelId, signal) => {
              const one = prepared.find((entry) => entry.panelId === panelId)!.prepared;
              if (one === null) return cancelledResult(panelId);
              if (!one.ok) return progress(failedResult(panelId, one.error));
              if (refused.has(panelId))
                return progress(
                  failedResult(
                    panelId,
                    new PanelError(
                      'FORBIDDEN',
                      `Not sent: ${one.value.operation.name} changes the panel, and this run was asked for reads only.`,
                    ),
                  ),
                );
              return progress(await callOn(calls, one.value, path, signal));
            },
            cancelled: (panelId) => cancelledResult(panelId),
            now,
          });
          pass = sending;
          if (cancelling) sending.cancel();
          return sending.run(ids);
        },
      );
    },

    async cancelOperationRun() {
      runs.cancel();
    },
  };
}

/** A panel's prepared call, or why it could not be prepared; null when the run was cancelled first. */
interface PanelAnswerOf<T> {
  panelId: string;
  prepared: Envelope<T> | null;
}

function failedResult(panelId: string, error: Pick<ErrorInfo, 'code' | 'message'>): PanelOperationResult {
  const outcome = error.code === 'CANCELLED' ? 'cancelled' : error.code === 'OUTCOME_UNKNOWN' ? 'unknown' : 'failed';
  return { panelId, outcome, status: null, ms: null, value: null, message: error.message };
}

async function callOn(
  calls: ConsoleCalls,
  prepared: Prepared,
  path: FieldPathSegment[] | null,
  signal: AbortSignal,
): Promise<PanelOperationResult> {
  const { panelId } = prepared;
  const answer = await settle(() => calls.send(prepared, signal));
  if (!answer.ok) return failedResult(panelId, answer.error);
  const { status, ms, body, truncated } = answer.value;
  const value = path === null || truncated ? null : cellOf(valueAtPath(body, path));
  const message =
    status >= 400
      ? `The panel answered ${describeStatus({ status })}.`
      : truncated
        ? 'The answer was too large to read a field from.'
        : null;
  return { panelId, outcome: 'done', status, ms, value, message };
}

const shorten = (text: string) => (text.length > CELL_VALUE_MAX_CHARS ? `${text.slice(0, CELL_VALUE_MAX_CHARS - 1)}…` : text);

/** A value as a table cell: scalars as they are (text shortened), containers as their JSON text with secret fields masked, shortened. */
export function cellOf(value: unknown): string | number | boolean | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string') return shorten(value);
  const secrets = secretFieldPaths(value, 100_000);
  const hidden = new Set(secrets.paths.map((secret) => JSON.stringify(secret)));
  // Masked by path while copying: the copy is the cell's only, the answer stays whole.
  const masked = hidden.size === 0 && secrets.complete ? value : maskPaths(value, hidden);
  return shorten(JSON.stringify(masked) ?? 'null');
}

function maskPaths(value: unknown, hidden: ReadonlySet<string>): unknown {
  if (hidden.size === 0) return value;
  // Cells are small once shortened: the paths are few, so each is replaced in a copy.
  const copy = copyJson(value, {});
  for (const key of hidden) {
    const path = JSON.parse(key) as FieldPathSegment[];
    let here = copy as Record<string | number, unknown>;
    for (const segment of path.slice(0, -1)) here = here[segment] as Record<string | number, unknown>;
    const last = path.at(-1);
    if (last === undefined) return MASKED;
    here[last] = MASKED;
  }
  return copy;
}
