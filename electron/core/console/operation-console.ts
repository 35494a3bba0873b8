import { PanelError } from '../../../shared/contract/errors.ts';
import type { Catalogue, OperationAnswer } from '../../../shared/operations-console.ts';
import { HIDDEN_SECRET } from '../../../shared/types.ts';
import { validateInput } from '../../../shared/input-validation.ts';
import { hasOpaqueRun, secretMatcher } from '../secrets/secret-match.ts';
import { createHash } from 'node:crypto';
import { type CatalogueEntry, type ReadCatalogue, readCatalogue } from '../easypanel/operation-catalogue.ts';
import type { TextCleaner } from '../easypanel/catalogue-schemas.ts';
import { callCatalogueOperation, fetchCatalogueText } from '../easypanel/operation-call.ts';
import { describeStatus } from '../easypanel/panel-responses.ts';
import { findVersion } from '../easypanel/panel-calls.ts';
import { failureOutcome, type WriteOutcome, writeRecorder } from '../activity/activity-methods.ts';
import type { RequestSettings } from '../easypanel/panel-endpoints.ts';
import { type CallOne, operationRunMethods, type OperationRunParts } from './operation-runs.ts';
import type { CoreMethods, Emit } from '../context/core-context.ts';
import { type SignedIn, type TokenCalls, withToken } from '../sign-in/with-token.ts';

/**
 * The API console (issue 25): a panel's catalogue (`getOperations`), cached per panel, address and
 * version, and one call of an operation in it (`callOperation`), its input validated in main
 * against the catalogue's schema before anything is sent. The same call across panels is
 * operation-runs.ts.
 */

type ConsoleMethod = 'getOperations' | 'callOperation' | 'callOperationOnPanels' | 'cancelOperationRun';

interface CachedCatalogue {
  baseUrl: string;
  /** The version the check history knew when it was read (the cache key); the catalogue's own may have been read then. */
  knownVersion: string | null;
  catalogue: Catalogue;
  byName: Map<string, CatalogueEntry>;
}

/** What the console uses: the calls with each panel's token, the requests' settings, and what a run across panels uses. */
export interface ConsoleParts extends TokenCalls, OperationRunParts {
  request: RequestSettings;
  emit: Emit;
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
  const { request, now } = parts;
  const cache = new Map<string, CachedCatalogue>();
  const reading = new Map<string, Promise<CachedCatalogue>>();
  const parsed = new ParsedCatalogues();
  let freshReads = 0;

  /** The panel's catalogue, from the cache while its address and version are the same; one read at a time per panel. */
  async function catalogueOf(held: SignedIn): Promise<CachedCatalogue> {
    const { record, state } = held;
    const version = state.history.get(record.id).panelVersion;
    const cached = cache.get(record.id);
    if (cached && cached.baseUrl === record.baseUrl && cached.knownVersion === version) return cached;
    const pending = reading.get(record.id);
    if (pending) return pending;
    // Removed panels' entries go now and then (every 64th fresh read): at every call it would cost a run of n panels n².
    if (++freshReads % 64 === 0) for (const panelId of cache.keys()) if (!state.registry.get(panelId)) cache.delete(panelId);
    const read = readFresh(held, version).finally(() => reading.delete(record.id));
    reading.set(record.id, read);
    return read;
  }

  async function readFresh({ record, token }: SignedIn, knownVersion: string | null): Promise<CachedCatalogue> {
    const holdsToken = secretMatcher([token]);
    // Everything kept from the catalogue is the panel's text: shortened, and never the token or what may encode it.
    const clean = (text: string, max: number) => {
      const short = text.length > max ? `${text.slice(0, max - 1)}…` : text;
      return holdsToken(short) || (short.length > 40 && hasOpaqueRun(short, 64)) ? HIDDEN_SECRET : short;
    };
    const text = await fetchCatalogueText(request, record, token);
    // JSON's \u escapes could spell the token unseen in the text: such a catalogue is read for its panel alone.
    const shareable = !holdsToken(text) && !text.includes('\\u');
    const read = await parsed.read(text, shareable ? clean : null, clean);
    // Not checked yet: the catalogue's own word, else the version is read now, so the catalogue says which Easypanel it is of.
    const version = knownVersion ?? read.version ?? (await findVersion(request, record, token).catch(() => null))?.version ?? null;
    const catalogue: Catalogue = {
      panelId: record.id,
      version,
      generation: read.generation,
      readAt: now().toISOString(),
      operations: read.operations.map(({ name, kind, summary, input }) => ({ name, kind, summary, input })),
      skipped: read.skipped,
    };
    const entry = {
      baseUrl: record.baseUrl,
      knownVersion,
      catalogue,
      byName: new Map(read.operations.map((operation) => [operation.name, operation])),
    };
    cache.set(record.id, entry);
    return entry;
  }

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
      const issues = validateInput(operation.input, call.input);
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

/** Catalogues parsed lately, by their text's hash: panels of one version serve the same, read once for a run across them. */
class ParsedCatalogues {
  static readonly KEPT = 16;
  readonly #byHash = new Map<string, Promise<ReadCatalogue>>();

  /**
   * `shareable` is the cleaner when the text does not hold the panel's token (then what is made of
   * it is the same for every panel); null reads it for this panel alone with `own`.
   */
  read(text: string, shareable: TextCleaner | null, own: TextCleaner): Promise<ReadCatalogue> {
    if (shareable === null) return readCatalogue(text, own);
    const hash = createHash('sha256').update(text).digest('base64');
    let read = this.#byHash.get(hash);
    if (!read) {
      read = readCatalogue(text, shareable);
      // A refusal is not kept: the next read tries again.
      read.catch(() => this.#byHash.delete(hash));
      this.#byHash.set(hash, read);
      if (this.#byHash.size > ParsedCatalogues.KEPT) this.#byHash.delete(this.#byHash.keys().next().value!);
    }
    return read;
  }
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
