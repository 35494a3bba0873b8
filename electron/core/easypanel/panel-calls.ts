import { PanelError } from '../../../shared/contract/errors.ts';
import type { Generation } from '../../../shared/types.ts';
import { apiUrl } from '../common/address.ts';
import { isRecord } from '../../../shared/guards.ts';
import { isPanelVersion } from '../../../shared/panel-version.ts';
import { callShape, envelopePayload, readEnvelope, readEnvelopeText, withEnvelopeStatus } from './generation-wire.ts';
import type { HttpResponse } from '../net/http-client.ts';
import type { PanelEndpoint, RequestSettings } from './panel-endpoints.ts';
import { REQUESTS, type PanelRequest, type RequestName, routesOf } from './panel-requests.ts';
import {
  describeStatus,
  failOnSharedStatus,
  failUnlessSuccess,
  MissingRouteError,
  parseJsonBody,
  serverMessage,
} from './panel-responses.ts';
import { callWithToken, type TokenRequest, tokenRefused, unreadableIfWrite } from './token-call.ts';

export { REQUESTS, type PanelRequest, type RequestName } from './panel-requests.ts';
export { MissingRouteError };
export { NoAnswerError, RETRY_PAUSE_MS, UnreadableAnswerError } from './token-call.ts';

export interface CallOptions {
  /** The generation to speak; default the panel's. */
  generation?: Generation;
  /** Ends a read's wait (see `TokenRequest.signal`); a write's request never gets it. */
  signal?: AbortSignal;
  /** Run right before each request leaves; throws to send nothing (see `TokenRequest.beforeSend`). */
  beforeSend?: () => void;
}

/**
 * Calls `name` on the panel with its token, in the generation `options.generation` (default the panel's),
 * and returns the answer's payload unwrapped from its envelope. Where the operation has several
 * routes in that generation, a route the panel lacks (404, 405) moves on to the next. A read with
 * `retry` is sent once more after a network failure or a 5xx; a write never is (`callWithToken`).
 * Fails only with `PanelError`: UNAUTHORIZED for a 401/403, BAD_RESPONSE (naming the route) for a
 * 404/405 on every route, and the shared statuses' codes.
 */
export function callPanel(
  settings: RequestSettings,
  panel: PanelEndpoint,
  token: string,
  name: RequestName,
  input?: unknown,
  options: CallOptions = {},
): Promise<unknown> {
  return callRequest(settings, panel, token, REQUESTS[name], input, options);
}

/** `callPanel` with the operation itself rather than its name in the table: for tests of the caller's rules. */
export async function callRequest(
  settings: RequestSettings,
  panel: PanelEndpoint,
  token: string,
  request: PanelRequest,
  input?: unknown,
  options: CallOptions = {},
): Promise<unknown> {
  const generation = options.generation ?? panel.generation;
  const call: Call = {
    settings,
    panel,
    token,
    request,
    input,
    generation: request.via?.[generation] ?? generation,
    signal: options.signal,
    beforeSend: options.beforeSend,
  };
  const routes = routesOf(request, generation);
  const memory = settings.routes;
  const missing = new Map<string, MissingRouteError>();
  for (const route of memory ? memory.ordered(panel.baseUrl, generation, request, routes) : routes) {
    try {
      const answer = await callRoute(call, route);
      if (routes.length > 1) memory?.answered(panel.baseUrl, generation, request, route);
      return answer;
    } catch (error) {
      if (!(error instanceof MissingRouteError)) throw error;
      memory?.missing(panel.baseUrl, generation, request, route);
      missing.set(route, error);
    }
  }
  // The first route's words (the one the generation is known by), whatever order they were tried in.
  throw (
    missing.get(routes[0] ?? '') ??
    [...missing.values()][0] ??
    new MissingRouteError(`Paneldeck has no route for ${request.doing} in this generation.`)
  );
}

/** One call of an operation, as `callPanel` was given it. */
interface Call {
  settings: RequestSettings;
  panel: PanelEndpoint;
  token: string;
  request: PanelRequest;
  input: unknown;
  generation: Generation;
  signal: AbortSignal | undefined;
  beforeSend: (() => void) | undefined;
}

/** One route, through the one caller: one request, and for a read with `retry` one more after a failure worth it. */
function callRoute({ settings, panel, token, request, input, generation, signal, beforeSend }: Call, route: string): Promise<unknown> {
  const url = apiUrl(panel.baseUrl, route, 'route');
  refuseUndeclaredInput(request, input);
  const shape = callShape(generation, request.kind, input);
  const tokenRequest: TokenRequest = {
    effect: request.effect,
    retry: request.effect === 'read' && request.retry,
    method: shape.method,
    url: `${url}${shape.query}`,
    body: shape.body,
    signal,
    beforeSend,
    doing: request.doing,
    ...(request.deadlineMs === null ? {} : { timeoutMs: request.deadlineMs }),
    ...(request.answerLimits ? { maxBytes: request.answerLimits.maxBytes } : {}),
  };
  return callWithToken(settings, panel, token, tokenRequest, (sent) =>
    readAnswer(request, generation, token, `${shape.method} ${url}`, sent),
  );
}

/**
 * A field the request table does not list for the request is a bug of ours, never sent: a real
 * panel would refuse it, or worse take it (docs/easypanel-api.md lists each request's inputs).
 */
function refuseUndeclaredInput(request: PanelRequest, input: unknown): void {
  if (input === undefined || input === null) return;
  const allowed = request.input ?? [];
  const extra = isRecord(input) ? Object.keys(input).filter((key) => !allowed.includes(key)) : ['(not an object)'];
  if (extra.length > 0) throw new Error(`Refused to send ${request.doing} with input the request table does not list: ${extra.join(', ')}`);
}

/** The payload of an operation's answer, out of its generation's envelope; or what its status means. */
async function readAnswer(
  request: PanelRequest,
  generation: Generation,
  token: string,
  where: string,
  sent: HttpResponse,
): Promise<unknown> {
  const secrets = [token];
  const enveloped = generation !== 'public';
  const failed = sent.status < 200 || sent.status >= 300;
  const response = enveloped && failed ? withEnvelopeStatus(sent, readEnvelopeText(generation, sent.text)) : sent;
  const fail = (answer: typeof response) => {
    if (answer.status === 401 || answer.status === 403) throw tokenRefused(answer, request.doing);
    // A write the panel says failed (a deploy whose build broke): its own words are the outcome.
    const said = request.effect === 'write' && answer.status >= 500 ? serverMessage(answer, secrets) : null;
    if (said) throw new PanelError('SERVER_ERROR', `The panel failed while ${request.doing} (${describeStatus(answer)}): "${said}".`);
    failOnSharedStatus(answer, request.doing);
    if (answer.status === 404 || answer.status === 405) {
      throw new MissingRouteError(
        `The panel has no ${where} (${describeStatus(answer)}): it may be another Easypanel version.`,
        serverMessage(answer, secrets),
      );
    }
    failUnlessSuccess(answer, request.doing, secrets);
  };
  fail(response);
  // A call that returns nothing may answer 200 with an empty body (2.33).
  if (response.text.trim() === '') return null;
  const readable = <T>(step: () => Promise<T>) => (request.effect === 'write' ? unreadableIfWrite(step) : step());
  const body = await readable(async () => parseJsonBody(response, request.doing, secrets, request.answerLimits?.shape));
  if (!enveloped) return body;
  const answer = readEnvelope(generation, body);
  if (answer.kind === 'error') fail(withEnvelopeStatus(response, answer));
  return readable(async () => envelopePayload(generation, answer, request.doing));
}

/** The version an answer of `getVersion` names (`"2.32.2"`), or null when it names none. */
export function versionOf(answer: unknown): string | null {
  const version = isRecord(answer) ? answer.version : null;
  return isPanelVersion(version) ? version : null;
}

/** The same answer's `available` (getUpdateStatus: a newer Easypanel is out), when it is a yes or a no; anything else is not said. */
export function updateAvailableOf(answer: unknown): boolean | null {
  const available = isRecord(answer) ? answer.available : null;
  return typeof available === 'boolean' ? available : null;
}

/**
 * The release tag the same answer says the panel is pinned to (`releaseTag`; an older SDK spells it
 * `relaseTag`), from Easypanel's own RELEASE_TAG: null when it says none, or follows `latest`.
 */
export function pinnedReleaseTagOf(answer: unknown): string | null {
  if (!isRecord(answer)) return null;
  const tag = answer.releaseTag ?? answer.relaseTag;
  if (typeof tag !== 'string') return null;
  const trimmed = tag.trim().slice(0, 64);
  return trimmed === '' || trimmed === 'latest' ? null : trimmed;
}

/** The generation a version speaks (2.33+ the public API, 2.31–2.32 the RPC layer, before: tRPC); null for no version. */
export function generationOfVersion(version: string | null): Generation | null {
  const match = version === null ? null : /^(\d+)\.(\d+)/.exec(version);
  if (!match) return null;
  const [major, minor] = [Number(match[1]), Number(match[2])];
  if (major > 2 || (major === 2 && minor >= 33)) return 'public';
  if (major === 2 && minor >= 31) return 'rpc';
  return 'trpc';
}

/** The order generations are probed in with a token: the newest first, since newer panels answer the older routes too. */
const VERSION_PROBES: readonly Generation[] = ['public', 'trpc', 'rpc'];

/**
 * Reads the panel's version with its token in its own generation; when that generation has no version route
 * (an upgraded or misjudged panel), probes the generations in docs/easypanel-api.md's order. Returns the
 * version and the generation that answered, or null when no generation answered one. An UNAUTHORIZED is
 * thrown (the token is the problem, not the generation); other failures count as "no version".
 */
export async function findVersion(
  settings: RequestSettings,
  panel: PanelEndpoint,
  token: string,
  signal?: AbortSignal,
): Promise<{ version: string; generation: Generation; updateAvailable: boolean | null } | null> {
  for (const generation of [panel.generation, ...VERSION_PROBES.filter((other) => other !== panel.generation)]) {
    try {
      const answer = await callPanel(settings, panel, token, 'getVersion', undefined, { generation, signal });
      const version = versionOf(answer);
      if (version !== null) return { version, generation, updateAvailable: updateAvailableOf(answer) };
    } catch (error) {
      if (error instanceof PanelError && (error.code === 'UNAUTHORIZED' || error.code === 'CANCELLED')) throw error;
    }
  }
  return null;
}
