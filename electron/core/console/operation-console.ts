import { PanelError } from '../../../shared/contract/errors.ts';
import type { OperationAnswer } from '../../../shared/operations-console.ts';
import { checkInput } from '../../../shared/input-check.ts';
import { callCatalogueOperation } from '../easypanel/operation-call.ts';
import type { PanelCatalogues } from './catalogue-cache.ts';
import { describeStatus } from '../easypanel/panel-responses.ts';
import { failureOutcome, type WriteOutcome, writeRecorder } from '../activity/activity-methods.ts';
import type { RequestSettings } from '../easypanel/panel-endpoints.ts';
import { type CallOne, operationRunMethods, type OperationRunParts } from './operation-runs.ts';
import type { CoreMethods, Emit } from '../context/core-context.ts';
import { type SignedIn, type TokenCalls, withToken } from '../sign-in/with-token.ts';

/**
 * The API console (issue 25): a panel's catalogue (`getOperations`), cached per panel, address and
 * version, and one call of an operation in it (`callOperation`), its input checked in main
 * against the catalogue's schema before anything is sent. The same call across panels is
 * operation-runs.ts.
 */

type ConsoleMethod = 'getOperations' | 'callOperation' | 'callOperationOnPanels' | 'cancelOperationRun';

/** What the console uses: the calls with each panel's token, the requests' settings, and what a run across panels uses. */
export interface ConsoleParts extends TokenCalls, OperationRunParts {
  request: RequestSettings;
  emit: Emit;
  catalogues: Pick<PanelCatalogues, 'of'>;
}

/** A write the panel answered with an error status: recorded as failed, returned to the window as the panel's answer. */
class RefusedWrite extends Error {
  readonly answer: OperationAnswer;
  constructor(answer: OperationAnswer) {
    super('refused');
    this.answer = answer;
  }
}

export function operationConsoleMethods(parts: ConsoleParts): CoreMethods<ConsoleMethod> {
  const { request, catalogues } = parts;
  const catalogueOf = (held: SignedIn) => catalogues.of(held);
  const callOne: CallOne = (panelId, call, { signal, allowWrite }) =>
    withToken(parts, panelId, async (held) => {
      const { byName, catalogue } = await catalogueOf(held);
      const operation = findOperation(byName, call.operation);
      if (!operation) {
        throw new PanelError(
          'NOT_FOUND',
          `${held.record.name} has no operation ${call.operation} in its catalogue (Easypanel ${catalogue.version ?? 'of unknown version'}).`,
        );
      }
      const issues = checkInput(operation.input, call.input);
      if (issues.length > 0) {
        const listed = issues.map(({ path, message }) => `${path === '' ? 'the input' : path}: ${message}`).join('; ');
        throw new PanelError('INVALID_INPUT', `Not sent: the input does not fit ${operation.name} (${listed})`);
      }
      if (operation.kind === 'write' && !allowWrite) {
        throw new PanelError('FORBIDDEN', `Not sent: ${operation.name} changes the panel, and this run was asked for reads only.`);
      }
      const send = async (): Promise<OperationAnswer> => ({
        panelId,
        ...(await callCatalogueOperation({
          settings: request,
          panel: held.record,
          token: held.token,
          generation: catalogue.generation,
          operation,
          input: call.input,
          // A read's only: the one caller never aborts a write's request (a cancelled run leaves it to finish).
          signal,
        })),
      });
      if (operation.kind === 'read') return send();
      return recordedWrite(parts, held, operation.name, send);
    });

  return {
    async getOperations(panelId) {
      return withToken(parts, panelId, async (held) => (await catalogueOf(held)).catalogue);
    },
    async callOperation(panelId, call) {
      return callOne(panelId, call, { allowWrite: true });
    },
    ...operationRunMethods(parts, callOne),
  };
}

/**
 * The operation `name` names in a catalogue: itself, or else the one operation whose last name
 * part is the same, so that a run across generations can name `users.listUsers` (tRPC, RPC) and
 * reach 2.33's `listUsers`, and the other way round. Two candidates: none (never a guess).
 */
export function findOperation<T extends { name: string }>(byName: ReadonlyMap<string, T>, name: string): T | undefined {
  const exact = byName.get(name);
  if (exact) return exact;
  const last = (full: string) => full.slice(full.lastIndexOf('.') + 1);
  const wanted = last(name);
  let found: T | undefined;
  for (const operation of byName.values()) {
    if (last(operation.name) !== wanted) continue;
    if (found) return undefined;
    found = operation;
  }
  return found;
}

/** A console write: on disk in the activity log before it is sent (its name, never its input), and again with its outcome. */
async function recordedWrite(
  events: { emit: Emit },
  { record, token, state }: SignedIn,
  name: string,
  send: () => Promise<OperationAnswer>,
): Promise<OperationAnswer> {
  const judge = (error: unknown): WriteOutcome =>
    error instanceof RefusedWrite
      ? { outcome: 'failed', message: `The panel answered ${describeStatus(error.answer)}.` }
      : failureOutcome(error);
  try {
    return await writeRecorder(events, state.activity)(
      record,
      { action: 'operation', operation: name },
      async () => {
        const answer = await send();
        if (answer.status >= 400) throw new RefusedWrite(answer);
        return answer;
      },
      { secrets: [token], judge },
    );
  } catch (error) {
    if (error instanceof RefusedWrite) return error.answer;
    throw error;
  }
}
