import { PanelError } from '../../../shared/contract/errors.ts';
import type { HttpResponse } from '../net/http-client.ts';
import { type PanelEndpoint, type RequestSettings, sendToPanel } from './panel-endpoints.ts';
import { describeStatus, MissingRouteError } from './panel-responses.ts';

/** How long a read waits before it is sent again: a moment for a panel that just failed. */
export const RETRY_PAUSE_MS = 250;

/** One request Paneldeck sends with a panel's token, beyond the log in and the session read. */
export interface TokenRequest {
  /**
   * A read may be sent once more (with `retry`); a write never is: the first may have been carried
   * out, and a second deploy or stop is not the operator's wish.
   */
  effect: 'read' | 'write';
  /** For a read, whether a failure is worth a second request (the version read beside a check is not). */
  retry: boolean;
  method: 'GET' | 'POST';
  /** Under the panel's API base (`apiUrl`), with its query. */
  url: string;
  body?: string | undefined;
  /** Headers and body together; default the settings' request timeout. */
  timeoutMs?: number;
  /** Default the settings' largest answer. */
  maxBytes?: number;
  /** An answer past `maxBytes` is kept cut (`cut`) rather than refused. */
  keepStartOfLarger?: boolean;
  /**
   * Ends a read's wait, its request and the pause before a second one: it then fails CANCELLED,
   * unsent if it was not sent yet. A write's request never gets it: giving up waiting is not
   * cancelling a write (the panel may carry it out all the same), so its answer is waited for, or
   * its deadline, and its outcome is known, or at worst unknown, never "cancelled".
   */
  signal?: AbortSignal | undefined;
  /**
   * Run right before each request leaves (each try of a read): throws to send nothing. A write's
   * plan checks here that the panel is still signed in as it was confirmed (writes/held-sign-in.ts).
   */
  beforeSend?: (() => void) | undefined;
  /** What it does, as a message says it ("restarting the service"). */
  doing?: string | undefined;
}

/**
 * What a proxy or gateway in front of a panel answers while the panel itself said nothing (bad
 * gateway, unavailable, gateway timeout, Cloudflare's 524): after a write was sent, whether the
 * panel did it is not known.
 */
export const GATEWAY_STATUSES: ReadonlySet<number> = new Set([502, 503, 504, 524]);

/** A write sent that got no answer from the panel itself: its outcome is unknown, never a failure to repeat. */
export class NoAnswerError extends PanelError {}

/** How long the answer that was read took to come, in whole milliseconds (its attempt only). */
export type ReadAnswer<T> = (response: HttpResponse, ms: number) => Promise<T> | T;

/**
 * The one caller of a panel with its token (the request table's `callPanel`, the console's
 * catalogue and call): the token as a bearer header and nowhere else, `read` given the answer.
 * The one rule for retries: a read with `retry` is sent once more after no answer (a network
 * failure) or the server's failure (a 5xx status, or `read` finding SERVER_ERROR in its envelope),
 * after `RETRY_PAUSE_MS`; never after a refusal (4xx), a timeout, or once its signal aborted.
 */
export async function callWithToken<T>(
  settings: RequestSettings,
  panel: PanelEndpoint,
  token: string,
  request: TokenRequest,
  read: ReadAnswer<T>,
): Promise<T> {
  try {
    return await sendWithToken(settings, panel, token, request, read);
  } catch (error) {
    if (error instanceof PanelError && error.code === 'UNAUTHORIZED') refusedTokens.set(error, token);
    throw error;
  }
}

/**
 * The token a refusal (UNAUTHORIZED) answered: a write that went as another account of the panel's
 * ends that account's sign-in, not the panel's own. Undefined for a refusal not from `callWithToken`.
 */
export function refusedToken(error: PanelError): string | undefined {
  // Said again in a write's own words (the activity log's), with the panel's refusal as its cause.
  for (let at: unknown = error; at instanceof PanelError; at = at.cause) {
    const token = refusedTokens.get(at);
    if (token !== undefined) return token;
  }
  return undefined;
}
const refusedTokens = new WeakMap<PanelError, string>();

async function sendWithToken<T>(
  settings: RequestSettings,
  panel: PanelEndpoint,
  token: string,
  request: TokenRequest,
  read: ReadAnswer<T>,
): Promise<T> {
  const { effect, method, url, body, timeoutMs, maxBytes, keepStartOfLarger } = request;
  const signal = effect === 'read' ? request.signal : undefined;
  const attempts = effect === 'read' && request.retry ? 2 : 1;
  const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  // A write never goes over a connection that could send it again (writeFetch: a fresh one each).
  const over = effect === 'write' && settings.writeFetch ? { ...settings, fetch: settings.writeFetch } : settings;
  const send = () => {
    request.beforeSend?.();
    return sendToPanel(over, [token], panel, {
      method,
      url,
      headers,
      body,
      signal,
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
      ...(maxBytes === undefined ? {} : { maxBytes }),
      ...(keepStartOfLarger === undefined ? {} : { keepStartOfLarger }),
    });
  };
  for (let attempt = 1; ; attempt++) {
    const again = attempt < attempts;
    const started = performance.now();
    let response: HttpResponse;
    try {
      response = await (effect === 'write' ? unreadableIfWrite(send) : send());
    } catch (error) {
      if (!again || !hasCode(error, 'NETWORK') || signal?.aborted) throw error;
      await pause(RETRY_PAUSE_MS, signal);
      continue;
    }
    if (effect === 'write' && GATEWAY_STATUSES.has(response.status)) {
      throw new NoAnswerError(
        'SERVER_ERROR',
        `No answer from the panel itself (${describeStatus(response)}) while ${request.doing ?? 'writing'}: whether it was done is not known.`,
      );
    }
    if (again && response.status >= 500 && !signal?.aborted) {
      await pause(RETRY_PAUSE_MS, signal);
      continue;
    }
    try {
      return await read(response, Math.round(performance.now() - started));
    } catch (error) {
      if (!again || !hasCode(error, 'SERVER_ERROR') || signal?.aborted) throw error;
      await pause(RETRY_PAUSE_MS, signal);
    }
  }
}

/** UNAUTHORIZED for a 401/403: the panel turned the token away (it expired or was revoked). */
export function tokenRefused(response: Pick<HttpResponse, 'status'>, doing: string): PanelError {
  return new PanelError('UNAUTHORIZED', `The panel rejected the saved token (${describeStatus(response)}) while ${doing}. Log in again.`);
}

/**
 * A write's answer that came but could not be read: too large, not JSON (a proxy's HTML page with
 * 200), not the generation's envelope. The write reached something that answered, so whether the
 * panel did it is not known (never a failure: see `serviceActionOutcome`).
 */
export class UnreadableAnswerError extends PanelError {}

/** `read`, its BAD_RESPONSE or RESPONSE_TOO_LARGE turned into `UnreadableAnswerError`: for a write's answer. */
export async function unreadableIfWrite<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    const unreadable = error instanceof PanelError && (error.code === 'BAD_RESPONSE' || error.code === 'RESPONSE_TOO_LARGE');
    // A missing route is an answer read, and understood: the panel has no such operation.
    if (!unreadable || error instanceof UnreadableAnswerError || error instanceof MissingRouteError) throw error;
    throw new UnreadableAnswerError(error.code, error.message, { cause: error });
  }
}

function hasCode(error: unknown, code: PanelError['code']): boolean {
  return error instanceof PanelError && error.code === code;
}

/** Waits `ms`, or less when `signal` aborts: the next attempt then finds it aborted and fails as CANCELLED, unsent. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', stop);
      resolve();
    }, ms);
    signal?.addEventListener('abort', stop, { once: true });
  });
}
