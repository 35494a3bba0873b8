import { PanelError } from '../../../shared/contract/errors.ts';
import type { OperationAnswer } from '../../../shared/operations-console.ts';
import { validateInput } from '../../../shared/input-validation.ts';
import { callCatalogueOperation } from '../easypanel/operation-call.ts';
import type { PanelCatalogues } from './catalogue-cache.ts';
import { describeStatus } from '../easypanel/panel-responses.ts';
import { type WriteOutcome, writeRecorder } from '../activity/activity-methods.ts';
import type { RequestSettings } from '../easypanel/panel-endpoints.ts';
import { operationRunMethods, type OperationRunParts } from './operation-runs.ts';
import type { ConsoleCalls, PreparedCall } from './console-calls.ts';
import { randomUUID } from 'node:crypto';
import { plural } from '../../../shared/counts.ts';
import type { Generation, OperationCall } from '../../../shared/operations-console.ts';
import type { WritePlan } from '../../../shared/write-plan.ts';
import type { CatalogueEntry } from '../easypanel/operation-catalogue.ts';
import { askToConfirm, type ConfirmWrite } from '../writes/confirmation.ts';
import { checkAsPlanned, plannedSignIn } from '../writes/held-sign-in.ts';
import { writeOutcome } from '../writes/write-outcomes.ts';
import { plannedInput, plannedPanel, requestLine, writePlan } from '../writes/write-plans.ts';
import type { CoreMethods, Emit } from '../context/core-context.ts';
import { type SignedIn, type TokenCalls, withToken } from '../sign-in/with-token.ts';

/**
 * The API console (issue 25): a panel's catalogue (`getOperations`), cached per panel, address and
 * version, and one call of an operation in it (`callOperation`), its input validated in main
 * against the catalogue's schema before anything is sent. The same call across panels is
 * operation-runs.ts.
 */

type ConsoleMethod = 'getOperations' | 'callOperation' | 'callOperationOnPanels' | 'cancelOperationRun';

/** What the console uses: the calls with each panel's token, the requests' settings, and what a run across panels uses. */
export interface ConsoleParts extends TokenCalls, OperationRunParts {
  request: RequestSettings;
  emit: Emit;
  catalogues: Pick<PanelCatalogues, 'of' | 'known'>;
  /** Main's own confirmation of a write; without it no console write is sent (NOT_CONFIRMED). */
  confirmWrite?: ConfirmWrite | undefined;
}

/** A console write's plan: each panel with the request it gets. `several` is the phrase typed when several production panels are among them. */
export function consolePlan(prepared: readonly PreparedCall[], several: string): WritePlan {
  const name = prepared[0]?.operation.name ?? 'the operation';
  return writePlan({
    id: randomUUID(),
    title:
      prepared.length === 1 ? `Call ${name} on ${prepared[0]!.held.record.name}` : `Call ${name} on ${plural(prepared.length, 'panel')}`,
    detail: `${name} changes the panel. It is sent once to each panel; if an answer does not come, the outcome is unknown: look at the panel.`,
    confirmLabel: 'Send',
    panels: prepared.map((one) => {
      const input = plannedInput(one.input);
      const request = { label: input === undefined ? `${name}, with no input` : `${name}, with this input`, request: one.request };
      return plannedPanel(one.held.record, [input === undefined ? request : { ...request, input }]);
    }),
    leftOut: [],
    several,
  });
}

/** "POST /api/createProject", "GET /api/trpc/users.listUsers": what a call of the operation sends, as a plan shows it. */
function requestOfCall(generation: Generation, operation: CatalogueEntry): string {
  if (generation === 'public' && operation.rpcRoute !== null) return requestLine('POST', operation.rpcRoute);
  if (generation === 'rpc') return requestLine('POST', operation.route);
  return requestLine(operation.kind === 'read' ? 'GET' : 'POST', operation.route);
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

  /** The operation found in the panel's catalogue with its input validated; what the window saw it as must be what it is. */
  const prepare = async (held: SignedIn, call: OperationCall): Promise<PreparedCall> => {
    const { byName, catalogue } = await catalogueOf(held);
    const operation = findOperation(byName, call.operation);
    if (!operation) {
      throw new PanelError(
        'NOT_FOUND',
        `${held.record.name} has no operation ${call.operation} in its catalogue (Easypanel ${catalogue.version ?? 'of unknown version'}).`,
      );
    }
    const issues = validateInput(operation.input, call.input);
    if (issues.length > 0) {
      const listed = issues.map(({ path, message }) => `${path === '' ? 'the input' : path}: ${message}`).join('; ');
      throw new PanelError('INVALID_INPUT', `Not sent: the input does not fit ${operation.name} (${listed})`);
    }
    // A write is planned as the panel's account for writes (refused on a read-only panel); a read goes as its own sign-in.
    const signIn = operation.kind === 'write' ? plannedSignIn(held.state, held.record) : null;
    // The window decided whether to ask from the catalogue it read; main's may be newer (an upgrade).
    if (call.shownAs === 'read' && operation.kind === 'write') {
      throw new PanelError(
        'CHANGED_BEFORE_SENDING',
        `Not sent: ${held.record.name} now lists ${operation.name} as a write (it changes the panel), not the read it was shown as. Open the console again to see it as it is.`,
      );
    }
    return {
      panelId: held.record.id,
      held,
      generation: catalogue.generation,
      operation,
      input: call.input,
      request: requestOfCall(catalogue.generation, operation),
      signIn,
    };
  };

  /**
   * Sends a prepared call: a read as it is (a run's signal ends its wait), a write once, recorded,
   * and only while the panel is signed in as planned and its catalogue still has the operation as
   * planned (checked right before the request leaves).
   */
  const send = async (prepared: PreparedCall, signal?: AbortSignal): Promise<OperationAnswer> => {
    const { held, operation, generation, input, signIn, panelId } = prepared;
    const stillAsPlanned = () => {
      if (signIn) checkAsPlanned(held.state, signIn);
      // The catalogue the plan was made from, for the version the panel has now: an upgrade since sends nothing.
      const known = catalogues.known(held);
      if (!known)
        throw new PanelError('CHANGED_BEFORE_SENDING', `Not sent: ${held.record.name}'s Easypanel version changed after you confirmed.`);
      const now = known.byName.get(operation.name);
      if (!now || now.kind !== operation.kind || now.route !== operation.route || now.rpcRoute !== operation.rpcRoute)
        throw new PanelError(
          'CHANGED_BEFORE_SENDING',
          `Not sent: ${held.record.name}'s catalogue changed ${operation.name} after you confirmed.`,
        );
    };
    const call = async (): Promise<OperationAnswer> => ({
      panelId,
      ...(await callCatalogueOperation({
        settings: request,
        panel: held.record,
        token: signIn?.token ?? held.token,
        generation,
        operation,
        input,
        // A read's only: the one caller never aborts a write's request (a cancelled run leaves it to finish).
        signal,
        ...(operation.kind === 'write' ? { beforeSend: stillAsPlanned } : {}),
      })),
    });
    if (operation.kind === 'read' || !signIn) return call();
    stillAsPlanned();
    return recordedWrite(parts, { ...held, token: signIn.token }, operation.name, call);
  };

  const console: ConsoleCalls = {
    prepare: (panelId, call) => withToken(parts, panelId, (held) => prepare(held, call)),
    // With the token it was prepared under (stillAsPlanned checks it is still the panel's); a 401 ends the sign-in.
    send: (prepared, signal) => withToken(parts, prepared.panelId, () => send(prepared, signal)),
    plan: (prepared, several) => consolePlan(prepared, several),
  };

  return {
    async getOperations(panelId) {
      return withToken(parts, panelId, async (held) => (await catalogueOf(held)).catalogue);
    },
    async callOperation(panelId, call) {
      const prepared = await console.prepare(panelId, call);
      if (prepared.operation.kind === 'write') await askToConfirm(parts.confirmWrite, consolePlan([prepared], prepared.operation.name));
      return console.send(prepared);
    },
    ...operationRunMethods(parts, console),
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
      : writeOutcome(error, 'check the panel.');
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
    // Said as the activity log records it: an unanswered write is unknown (never failed, never
    // "try again"); any other failure in the same words as its entry.
    const { outcome, message } = judge(error);
    if (outcome === 'unknown')
      throw new PanelError('OUTCOME_UNKNOWN', `Outcome unknown: ${message ?? 'check the panel.'}`, { cause: error });
    if (error instanceof PanelError && message !== null && message !== error.message)
      throw new PanelError(error.code, message, { cause: error });
    throw error;
  }
}
