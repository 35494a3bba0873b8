import { settle } from '../../../shared/contract/envelope.ts';
import { type FieldPathSegment, parseFieldPath, valueAtPath } from '../../../shared/field-path.ts';
import {
  CELL_VALUE_MAX_CHARS,
  type OperationAnswer,
  type OperationCall,
  type PanelOperationResult,
} from '../../../shared/operations-console.ts';
import { secretFieldPaths } from '../../../shared/secret-fields.ts';
import { DEFAULT_SETTINGS } from '../../../shared/settings.ts';
import { copyJson } from '../../../shared/json-copy.ts';
import { PanelPass } from '../schedule/panel-pass.ts';
import { RunHolder } from '../schedule/run-holder.ts';
import { describeStatus } from '../easypanel/panel-responses.ts';
import type { CoreMethods, Emit, OpenedFolder } from '../context/core-context.ts';

/** What a call needs to be sent: signal for a read a run cancels (a write's request never gets it); whether a write may go. */
export interface CallOptions {
  signal?: AbortSignal;
  allowWrite: boolean;
}

/** Calls one operation on one panel with its token (operation-console.ts): the run and the single call share it. */
export type CallOne = (panelId: string, call: OperationCall, options: CallOptions) => Promise<OperationAnswer>;

/** What a run across panels uses: the folder (the concurrency setting), the clock, the window's progress events. */
export interface OperationRunParts extends OpenedFolder {
  now(): Date;
  emit: Emit;
}

const ALREADY_RUNNING =
  'Paneldeck is already calling an operation on several panels. Wait for that to finish, or cancel it, before starting another.';
const CANCELLED_MESSAGE = 'Not sent: the run was cancelled before this panel was reached.';
/** Put in place of a secret field inside a cell's JSON text: a cell cannot reveal, the answer of one panel can. */
const MASKED = '•••';

/**
 * The same operation on many panels (`callOperationOnPanels`): a panel pass of its own (the
 * check concurrency setting), one at a time, each panel through the one call (`CallOne`: its own
 * catalogue, the input validated against its schema, a write only when allowed and then recorded),
 * results in the order asked, `operationProgress` as each panel ends. Cancel starts no more and
 * aborts the reads in flight; a write already sent is left to finish.
 */
export function operationRunMethods(
  { opened, now, emit }: OperationRunParts,
  callOne: CallOne,
): CoreMethods<'callOperationOnPanels' | 'cancelOperationRun'> {
  const runs = new RunHolder<PanelPass<PanelOperationResult>>(ALREADY_RUNNING);
  return {
    async callOperationOnPanels(requested, call, { field, allowWrite = false }) {
      const path = field === null ? null : parseFieldPath(field);
      let done = 0;
      const total = new Set(requested).size;
      const progress = (result: PanelOperationResult) => {
        done++;
        try {
          emit({ type: 'operationProgress', result, done, total });
        } catch {
          // A window that is gone must not stop the run.
        }
      };
      const start = () =>
        new PanelPass<PanelOperationResult>({
          concurrency: () => opened()?.settings.get().checkConcurrency ?? DEFAULT_SETTINGS.checkConcurrency,
          runOne: async (panelId, signal) => {
            const result = await callOn(callOne, panelId, call, path, { signal, allowWrite });
            progress(result);
            return result;
          },
          cancelled: (panelId) => {
            const result: PanelOperationResult = {
              panelId,
              outcome: 'cancelled',
              status: null,
              ms: null,
              value: null,
              message: CANCELLED_MESSAGE,
            };
            progress(result);
            return result;
          },
          now,
        });
      return runs.hold(start, (pass) => pass.run(requested));
    },

    async cancelOperationRun() {
      runs.cancel();
    },
  };
}

async function callOn(
  callOne: CallOne,
  panelId: string,
  call: Parameters<CallOne>[1],
  path: FieldPathSegment[] | null,
  options: Parameters<CallOne>[2],
): Promise<PanelOperationResult> {
  const answer = await settle(() => callOne(panelId, call, options));
  if (!answer.ok) {
    const outcome = answer.error.code === 'CANCELLED' ? 'cancelled' : 'failed';
    return { panelId, outcome, status: null, ms: null, value: null, message: answer.error.message };
  }
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
