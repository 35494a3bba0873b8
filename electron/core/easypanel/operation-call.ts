import { PanelError } from '../../../shared/contract/errors.ts';
import {
  ANSWER_MAX_BYTES,
  ANSWER_TEXT_MAX_CHARS,
  CATALOGUE_MAX_BYTES,
  type Generation,
  type OperationAnswer,
} from '../../../shared/operations-console.ts';
import { HIDDEN_SECRET } from '../../../shared/types.ts';
import { isRecord } from '../../../shared/guards.ts';
import { apiUrl } from '../common/address.ts';
import { checkJsonShape, type JsonShapeLimits } from '../common/json-shape.ts';
import { nextTurn } from '../common/time-slices.ts';
import { hideSecrets } from '../secrets/session-redaction.ts';
import { secretMatcher } from '../secrets/secret-match.ts';
import { callShape, readEnvelope } from './generation-wire.ts';
import type { HttpResponse } from '../net/http-client.ts';
import type { PanelEndpoint, RequestSettings } from './panel-endpoints.ts';
import { describeStatus, failOnSharedStatus, failUnlessSuccess } from './panel-responses.ts';
import { callWithToken, tokenRefused } from './token-call.ts';
import { DEPLOY_DEADLINE_MS } from './service-requests.ts';
import type { CatalogueEntry } from './operation-catalogue.ts';

/**
 * The console's two requests with a panel's token, through the one caller (`callWithToken`: its
 * retry and abort rules): the catalogue (`GET /api/openapi.json`) and one operation of it, sent in
 * its generation's form to the route Paneldeck built (`routeOf`), under the panel's API base only
 * (apiUrl, and the client's redirect rule). The answer is the panel's, whatever its status (a 4xx
 * is an answer to show), but for a 401/403, which is UNAUTHORIZED.
 */

/** What an answer may be, parsed: deep as the window can draw (structured clone's limit) and a 4 MiB answer of small values. */
const ANSWER_LIMITS: Readonly<JsonShapeLimits> = Object.freeze({ maxDepth: 2000, maxValues: 1_000_000 });

/** Past this many characters, reading an answer yields between its steps. */
const SLICED_ANSWER_CHARS = 256 * 1024;

/** The catalogue's text, read with the token within `CATALOGUE_MAX_BYTES`, once (a console read asked for again by hand costs nothing). */
export async function fetchCatalogueText(
  settings: RequestSettings,
  panel: PanelEndpoint,
  token: string,
  signal?: AbortSignal,
): Promise<string> {
  const doing = 'reading its catalogue of operations';
  const url = apiUrl(panel.baseUrl, '/openapi.json', 'route');
  const request = { effect: 'read', retry: false, method: 'GET', url, signal, maxBytes: CATALOGUE_MAX_BYTES } as const;
  return callWithToken(settings, panel, token, request, (response) => {
    if (response.status === 401 || response.status === 403) throw tokenRefused(response, doing);
    if (response.status === 404) {
      throw new PanelError(
        'NOT_FOUND',
        `The panel serves no catalogue at ${url} (${describeStatus(response)}): this Easypanel may not offer one.`,
      );
    }
    failOnSharedStatus(response, doing);
    failUnlessSuccess(response, doing, [token]);
    return response.text;
  });
}

/** A 2.33 read's input as query parameters: text as it is, numbers and booleans as text, anything else as JSON. */
function publicQuery(input: unknown): string {
  if (!isRecord(input)) return '';
  const entries = Object.entries(input).flatMap(([key, value]): [string, string][] => {
    if (value === undefined || value === null) return [];
    if (typeof value === 'string') return [[key, value]];
    if (typeof value === 'number' || typeof value === 'boolean') return [[key, String(value)]];
    return [[key, JSON.stringify(value)]];
  });
  return entries.length === 0 ? '' : `?${new URLSearchParams(entries).toString()}`;
}

export interface CallRequest {
  settings: RequestSettings;
  panel: PanelEndpoint;
  token: string;
  generation: Generation;
  operation: CatalogueEntry;
  input: unknown;
  signal?: AbortSignal;
}

/**
 * One call of the operation through the one caller: a read is sent once more after a network
 * failure or a 5xx, a write exactly once (its request never aborted: a cancelled run leaves it to
 * finish, so its outcome is known). A write may take as long as a deploy.
 */
export function callCatalogueOperation({
  settings,
  panel,
  token,
  generation,
  operation,
  input,
  signal,
}: CallRequest): Promise<Omit<OperationAnswer, 'panelId'>> {
  const url = apiUrl(panel.baseUrl, operation.route, 'route');
  const kind = operation.kind === 'read' ? 'query' : 'mutation';
  const shape =
    generation === 'public' && kind === 'query'
      ? { method: 'GET' as const, query: publicQuery(input) }
      : callShape(generation, kind, input);
  const request = {
    effect: operation.kind,
    retry: true,
    method: shape.method,
    url: `${url}${shape.query}`,
    body: shape.body,
    signal,
    maxBytes: ANSWER_MAX_BYTES,
    keepStartOfLarger: true,
    ...(operation.kind === 'write' ? { timeoutMs: Math.max(settings.timeoutMs, DEPLOY_DEADLINE_MS) } : {}),
  };
  return callWithToken(settings, panel, token, request, async (response, ms) => {
    if (response.status === 401 || response.status === 403) throw tokenRefused(response, `calling ${operation.name}`);
    const bytes = Buffer.byteLength(response.text);
    return { operation: operation.name, status: response.status, ms, bytes, ...(await readAnswer(response, generation, token)) };
  });
}

/** The answer's body without the generation's envelope and with the token hidden; its text when it is not JSON or was cut. */
export async function readAnswer(
  response: HttpResponse,
  generation: Generation,
  token: string,
): Promise<Pick<OperationAnswer, 'body' | 'text' | 'truncated'>> {
  const holdsToken = secretMatcher([token]);
  const asText = (truncated: boolean) => ({ body: null, text: cleanText(response.text, token, holdsToken), truncated });
  if (response.cut) return asText(true);
  if (response.text.trim() === '') return { body: null, text: null, truncated: false };
  // Each step of a large answer is a task of its own (the scan, the parse, the token search), not one long one.
  if (!checkJsonShape(response.text, ANSWER_LIMITS).ok) return asText(true);
  if (response.text.length > SLICED_ANSWER_CHARS) await nextTurn();
  let parsed: unknown;
  try {
    parsed = JSON.parse(response.text);
  } catch {
    return asText(false);
  }
  const success = response.status >= 200 && response.status < 300;
  const envelope = generation === 'public' || !success ? null : readEnvelope(generation, parsed);
  const body = envelope?.kind === 'result' ? envelope.value : parsed;
  // One scan of the raw text tells whether the token is anywhere; JSON's \u escapes could spell it unseen, so those are walked.
  if (response.text.length > SLICED_ANSWER_CHARS) await nextTurn();
  const mayHold = holdsToken(response.text) || response.text.includes('\\u');
  return { body: mayHold ? hideSecrets(body, holdsToken) : body, text: null, truncated: false };
}

/** At most `ANSWER_TEXT_MAX_CHARS` of a text answer, the token replaced; left out whole when it holds the token in another form. */
function cleanText(text: string, token: string, holdsToken: (text: string) => boolean): string | null {
  const start = text.slice(0, ANSWER_TEXT_MAX_CHARS + token.length);
  const replaced = token === '' ? start : start.replaceAll(token, HIDDEN_SECRET);
  if (holdsToken(replaced)) return `${HIDDEN_SECRET} (the answer's text was left out: it holds the token in an encoded form)`;
  return replaced.slice(0, ANSWER_TEXT_MAX_CHARS);
}
