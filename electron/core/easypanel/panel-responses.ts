import { STATUS_CODES } from 'node:http';
import { PanelError } from '../../../shared/contract/errors.ts';
import type { HttpResponse } from '../net/http-client.ts';
import { containsSecret, hasOpaqueRun } from '../secrets/secret-match.ts';
import { checkJsonShape, type JsonShapeLimits, PANEL_ANSWER_LIMITS } from '../common/json-shape.ts';

/** The panel has no such route (404, 405): BAD_RESPONSE, told apart from a panel that answered wrongly. */
export class MissingRouteError extends PanelError {
  /**
   * What the panel said with its 404 (shortened, secrets removed), if anything: a route that is
   * there may answer 404 for what it was asked about ("Action not found").
   */
  readonly panelWords: string | null;

  constructor(message: string, panelWords: string | null = null) {
    super('BAD_RESPONSE', message);
    this.panelWords = panelWords;
  }
}

/**
 * What the panel's answers mean, for the statuses every endpoint shares. `action` names the
 * operation in the operator's words ("logging in", "reading the session").
 */
export function failOnSharedStatus(response: HttpResponse, action: string, now: Date = new Date()): void {
  const status = describeStatus(response);
  if (response.status === 429) {
    const wait = describeWait(retryAfterMs(response, now));
    throw new PanelError('RATE_LIMITED', `The panel is limiting requests (${status}) while ${action}. Wait ${wait} and try again.`);
  }
  if (response.status >= 500) {
    throw new PanelError(
      'SERVER_ERROR',
      `${describeServerError(response)} (${status}) while ${action}. ` +
        'Try again in a moment; if it persists, the panel or its web server needs attention.',
    );
  }
}

/**
 * What a 5xx means for the operator. The gateway statuses come from the proxy in front of the
 * panel, usually with its own HTML page: they say the panel behind it is down or slow, which is
 * what to look at, so the page itself is not mentioned.
 */
function describeServerError(response: HttpResponse): string {
  switch (response.status) {
    case 502:
      return 'The web server or proxy in front of the panel got no valid answer from the panel';
    case 503:
      return 'The panel is unavailable for now (overloaded or under maintenance)';
    case 504:
      return 'The web server or proxy in front of the panel gave up waiting for the panel';
    default:
      return looksLikeHtml(response) ? 'The panel or its web server had an error and sent an error page' : 'The panel had a server error';
  }
}

/** Fails with `BAD_RESPONSE` for any status that is not 2xx by now. */
export function failUnlessSuccess(response: HttpResponse, action: string, secrets: readonly string[]): void {
  if (response.status >= 200 && response.status < 300) return;
  const detail = serverMessage(response, secrets);
  throw new PanelError(
    'BAD_RESPONSE',
    `The panel answered ${describeStatus(response)} while ${action}${detail ? `: "${detail}"` : ''}. ` +
      'Check the panel address and that this panel version supports Paneldeck.',
  );
}

/** Parses a JSON body, or says what came instead. */
export function parseJsonBody(
  response: HttpResponse,
  action: string,
  secrets: readonly string[],
  limits: JsonShapeLimits = PANEL_ANSWER_LIMITS,
): unknown {
  // Before JSON.parse: it, hiding the token and the copy to the window each hold main for as long
  // as the answer has values, up to seconds for a hostile 4 MiB one; the scan is linear and quick.
  const shape = checkJsonShape(response.text, limits);
  if (!shape.ok) {
    const limit = shape.limit.toLocaleString('en-US');
    const [code, what, verb] =
      shape.exceeded === 'depth'
        ? (['BAD_RESPONSE', `is nested more than ${limit} levels deep`, 'is'] as const)
        : (['RESPONSE_TOO_LARGE', `holds more than ${limit} values`, 'does'] as const);
    throw new PanelError(
      code,
      `The panel's answer while ${action} ${what} (${describeStatus(response)}); no real panel answer ${verb}, ` +
        'so Paneldeck refused it rather than freeze while reading it. ' +
        'Check that the address points to the panel itself; if it does, the panel is sending broken answers and needs attention.',
    );
  }
  try {
    if (response.text.trim() === '') throw new SyntaxError('empty');
    return JSON.parse(response.text);
  } catch {
    const status = describeStatus(response);
    const checkAddress = 'Check that the address points to the panel itself and not to a proxy or a web page.';
    if (response.text.trim() === '') {
      throw new PanelError(
        'BAD_RESPONSE',
        `The panel answered with an empty body (${status}) while ${action}, where JSON was expected. ${checkAddress}`,
      );
    }
    if (looksLikeHtml(response)) {
      throw new PanelError(
        'BAD_RESPONSE',
        `The panel answered with an HTML page (${status}) while ${action}, not with JSON. ${checkAddress}`,
      );
    }
    // Said to be JSON (or of no stated type) yet broken: most often cut off on the way.
    const type = mediaType(response.contentType, secrets);
    throw new PanelError(
      'BAD_RESPONSE',
      `The panel's answer while ${action} is not valid JSON (${status}${type ? `, ${type}` : ''}): it may be cut off or malformed. ` +
        'Try again; if it keeps happening, check that the address points to the panel itself and not to a proxy.',
    );
  }
}

/** The status with its standard name; the server's own reason phrase is never shown. */
export function describeStatus(response: Pick<HttpResponse, 'status'>): string {
  const name = STATUS_CODES[response.status];
  return `HTTP ${response.status}${name ? ` ${name}` : ''}`;
}

/**
 * The content type's media type when it looks like one, for messages. Server text like
 * `serverMessage`: left out when it holds a secret in any form, or a run that could be one encoded.
 */
function mediaType(contentType: string, secrets: readonly string[]): string | null {
  const type = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  if (!/^[a-z0-9.+-]{1,40}\/[a-z0-9.+-]{1,60}$/.test(type)) return null;
  return containsSecret(type, secrets) || hasOpaqueRun(type) ? null : type;
}

function looksLikeHtml(response: HttpResponse): boolean {
  return response.contentType.includes('html') || /^\s*<(!doctype|html)/i.test(response.text);
}

/**
 * How long the panel asks to wait: `Retry-After` in seconds or as an HTTP date, else the reset
 * time in the body (Easypanel's `data.reset`, epoch milliseconds; also inside a tRPC envelope).
 * Null when it does not say.
 */
function retryAfterMs(response: HttpResponse, now: Date): number | null {
  const header = response.retryAfter?.trim();
  if (header) {
    const seconds = Number(header);
    if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
    const date = Date.parse(header);
    if (!Number.isNaN(date)) return Math.max(0, date - now.getTime());
  }
  const body = errorBody(response);
  // tRPC's `error.json`, the RPC layer's `json`.
  const envelope = record(record(body?.error)?.json) ?? record(body?.json);
  const reset = [record(body?.data)?.reset, record(envelope?.data)?.reset, body?.reset].find(
    (value) => typeof value === 'number' && Number.isFinite(value),
  );
  if (typeof reset !== 'number') return null;
  // Epoch seconds or milliseconds; a reset in the past or years away is not a reset.
  const at = reset < 1e11 ? reset * 1000 : reset;
  const wait = at - now.getTime();
  return wait >= 0 && wait < 24 * 3600_000 ? wait : null;
}

function describeWait(ms: number | null): string {
  if (ms === null) return 'a minute';
  const seconds = Math.ceil(ms / 1000);
  return seconds < 90 ? `${seconds} s` : `${Math.ceil(seconds / 60)} minutes`;
}

/** The JSON object of an error answer, or null: checked for a hostile shape before it is parsed. */
function errorBody(response: HttpResponse): Record<string, unknown> | null {
  if (!checkJsonShape(response.text, PANEL_ANSWER_LIMITS).ok) return null;
  try {
    return record(JSON.parse(response.text));
  } catch {
    return null;
  }
}

function record(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

/**
 * A short message from a JSON error body (`message` or `error`), which often tells the operator
 * what the panel disliked. One whose start (what could be shown) contains a secret of the
 * request, in any form the matcher knows (other case, percent-encoded, base64, hex), is not shown
 * at all: blanking the secret out would show where it was. Nor is one with an opaque run (24 or
 * more varied base64- or hex-like characters): it may hold a secret in an encoding the matcher
 * does not decode, and text that cannot be shown to be safe is left out; the status alone still
 * says what happened.
 */
export function serverMessage(response: HttpResponse, secrets: readonly string[]): string | null {
  const body = errorBody(response);
  if (!body) return null;
  const nested = record(body.error);
  // Easypanel's `{code, status, message}`, `{"error": "..."}`, `{"error": {"message"}}`, tRPC's
  // `{"error": {"json": {"message"}}}` and the RPC layer's `{"json": {"message"}}`.
  const candidate = [body.message, body.error, nested?.message, record(nested?.json)?.message, record(body.json)?.message].find(
    (value): value is string => typeof value === 'string' && value.trim() !== '',
  );
  if (!candidate) return null;
  // At most 200 characters are shown, so a window well past them is what is checked, which keeps
  // a message of megabytes quick; a secret that starts among them ends inside the window.
  const short = candidate.slice(0, 4096).replace(/\s+/g, ' ').trim();
  if (containsSecret(short, secrets) || hasOpaqueRun(short)) return null;
  return short.length > 200 ? `${short.slice(0, 199)}…` : short;
}
