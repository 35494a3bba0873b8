import { PanelError } from '../../../shared/contract/errors.ts';
import { formatBytes } from '../../../shared/sizes.ts';
import { isUnderApi } from '../common/address.ts';
import { describeConnectionFailure } from './connection-errors.ts';
import { containsSecret, hasOpaqueRun } from '../secrets/secret-match.ts';

/**
 * The part of `fetch` the core uses. With `redirect: 'manual'` it must hand back the 3xx response
 * itself, as Node's fetch does. Electron's `net.fetch` instead fails with "Redirect was cancelled"
 * (electron/electron#43715), which is read as a refused redirect (it fails closed); the app passes
 * a fetch over `net.request` that returns the 3xx (electron/main/net-request-fetch.ts).
 */
export type FetchLike = (url: string, init: RequestInit, tls?: TlsPolicy) => Promise<Response>;

/** Which certificate an https request accepts. */
export interface TlsPolicy {
  /**
   * The SHA-256 fingerprint of the one certificate the operator trusted for the panel, or null to
   * accept what the system trusts. A refusal fails the fetch with a `CertificateRejection` cause.
   */
  trustedCertificate: string | null;
}

export interface HttpRequest {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
  maxBytes: number;
  /** The password or token the request carries: text from the server that contains one is never shown. */
  secrets: readonly string[];
  /** Aborts the request (Cancel, the system going to sleep): it then fails with `CANCELLED`. */
  signal?: AbortSignal;
  /** The certificate trusted for the panel (its SHA-256 fingerprint); none: the system decides. */
  trustedCertificate?: string | null;
  /**
   * The panel's API base (`https://host/api`): a redirect is followed only to a URL under it, as
   * configured paths are, so a 307 cannot carry the password (nor any redirect the token) to
   * another application on the same origin. Without it, any same-origin redirect is followed.
   */
  within?: string;
  /**
   * An answer larger than `maxBytes` is cut there (its first `maxBytes` kept, `cut` set, the rest
   * never read) instead of refused: for the console, which shows the start of a huge answer.
   */
  keepStartOfLarger?: boolean;
}

export interface HttpResponse {
  status: number;
  /** The URL that answered, after same-origin redirects. */
  url: string;
  contentType: string;
  retryAfter: string | null;
  text: string;
  /** Only with `keepStartOfLarger`: the answer was longer than `maxBytes` and `text` is its start. */
  cut?: boolean;
}

const MAX_REDIRECTS = 5;
/** One decoder for every answer: it holds no state between calls to `decode`. */
const utf8 = new TextDecoder();
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/**
 * Sends one request and reads its whole answer, within a time limit and a size limit.
 * Redirects are followed only within the same origin, so a token or password is never sent
 * anywhere but the panel the operator added. Fails only with `PanelError`.
 */
export async function sendRequest(fetchImpl: FetchLike, request: HttpRequest): Promise<HttpResponse> {
  // Not AbortSignal.timeout: its timer does not keep the event loop alive, and the deadline must
  // fire even when nothing else is pending (a fetch stuck without any socket activity).
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException('The request timed out.', 'TimeoutError')), request.timeoutMs);
  const deadline = controller.signal;
  const cancel = () => controller.abort(new PanelError('CANCELLED', `The request to ${new URL(request.url).host} was cancelled.`));
  if (request.signal?.aborted) cancel();
  else request.signal?.addEventListener('abort', cancel, { once: true });
  // A panel that never answers and one whose answer stalls half-way are different problems.
  let answering = false;
  const timedOut = () => {
    const panel = `The panel at ${new URL(request.url).host}`;
    const limit = formatSeconds(request.timeoutMs);
    return new PanelError(
      'TIMEOUT',
      answering
        ? `${panel} started to answer but did not finish within ${limit}. Try again; if it keeps happening, ` +
            'the panel or a proxy in front of it is stalling and needs attention.'
        : `${panel} did not answer within ${limit}. It may be overloaded or unreachable: ` +
            'try again, and check the address if it keeps happening.',
    );
  };
  try {
    const response = await fetchFollowingSameOrigin(fetchImpl, request, deadline);
    answering = true;
    const { text, cut } = await readCapped(response.response, request.maxBytes, response.url, deadline, request.keepStartOfLarger === true);
    return {
      status: response.response.status,
      url: response.url,
      contentType: response.response.headers.get('content-type') ?? '',
      retryAfter: response.response.headers.get('retry-after'),
      text,
      ...(cut ? { cut } : {}),
    };
  } catch (error) {
    if (error instanceof PanelError) throw error;
    if (deadline.aborted) throw deadline.reason instanceof PanelError ? deadline.reason : timedOut();
    throw describeConnectionFailure(error, new URL(request.url));
  } finally {
    clearTimeout(timer);
    request.signal?.removeEventListener('abort', cancel);
  }
}

async function fetchFollowingSameOrigin(
  fetchImpl: FetchLike,
  request: HttpRequest,
  signal: AbortSignal,
): Promise<{ response: Response; url: string }> {
  let url = request.url;
  let method = request.method;
  let body = request.body;
  const tls: TlsPolicy = { trustedCertificate: request.trustedCertificate ?? null };
  for (let hop = 0; ; hop++) {
    // Cancelled before it was sent: nothing is sent.
    if (signal.aborted) throw signal.reason;
    const response = await beforeDeadline(
      fetchImpl(
        url,
        {
          method,
          headers: body === undefined ? withoutContentType(request.headers) : request.headers,
          body,
          redirect: 'manual',
          signal,
        },
        tls,
      ),
      signal,
    );
    const location = response.headers.get('location');
    if (!REDIRECT_STATUSES.has(response.status) || location === null) return { response, url };
    await response.body?.cancel().catch(() => undefined);

    const target = resolveLocation(location, url);
    const origin = new URL(url).origin;
    if (target === null || target.origin !== origin) {
      // The origin comes from the server: named only when it cannot hold a secret, in any form.
      const nameable = target !== null && !containsSecret(target.origin, request.secrets) && !hasOpaqueRun(target.origin);
      const elsewhere =
        target === null ? 'an invalid address' : nameable ? target.origin : 'an address not named here (it may hold a secret)';
      throw new PanelError(
        'REDIRECT_REFUSED',
        `The panel redirected to ${elsewhere}, another address than ${origin}. ` +
          'Paneldeck does not follow it, so that your password and token go only to the panel you added. ' +
          'If the panel has moved, change its address in the panel settings.',
      );
    }
    if (request.within !== undefined && !isUnderApi(target, new URL(request.within))) {
      const nameable = !containsSecret(target.pathname, request.secrets) && !hasOpaqueRun(target.pathname);
      throw new PanelError(
        'REDIRECT_REFUSED',
        `The panel redirected to ${nameable ? target.pathname : 'a path not named here (it may hold a secret)'}, outside its API (${new URL(request.within).pathname}/). ` +
          'Paneldeck does not follow it, so that your password and token go only to the panel’s API. ' +
          'If the panel serves its API elsewhere, change its address or paths in the panel settings.',
      );
    }
    if (hop >= MAX_REDIRECTS) {
      throw new PanelError(
        'REDIRECT_REFUSED',
        `The panel redirected more than ${MAX_REDIRECTS} times. Check its address and the server configuration.`,
      );
    }
    // As browsers do: 303, and 301/302 after a POST, continue as a GET without the body.
    if (response.status === 303 || (method === 'POST' && (response.status === 301 || response.status === 302))) {
      method = 'GET';
      body = undefined;
    }
    url = target.href;
  }
}

function resolveLocation(location: string, base: string): URL | null {
  try {
    return new URL(location, base);
  } catch {
    return null;
  }
}

function withoutContentType(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => name.toLowerCase() !== 'content-type'));
}

/** Reads the body as a stream and stops at `maxBytes`, so a huge or endless answer costs nothing; `keepStart` returns what came before it. */
async function readCapped(
  response: Response,
  maxBytes: number,
  url: string,
  deadline: AbortSignal,
  keepStart: boolean,
): Promise<{ text: string; cut: boolean }> {
  const tooLarge = () =>
    new PanelError(
      'RESPONSE_TOO_LARGE',
      `The answer from ${new URL(url).host} is larger than ${formatBytes(maxBytes)}, so Paneldeck stopped reading it. ` +
        'Check that the address points to the panel itself; a panel answer is normally a few kilobytes.',
    );
  const declared = Number(response.headers.get('content-length'));
  if (!keepStart && Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  if (!response.body) return { text: '', cut: false };
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    let chunk: Awaited<ReturnType<typeof reader.read>>;
    try {
      chunk = await beforeDeadline(reader.read(), deadline);
    } catch (error) {
      reader.cancel().catch(() => undefined);
      throw error;
    }
    const { done, value } = chunk;
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      if (!keepStart) throw tooLarge();
      chunks.push(value.subarray(0, value.byteLength - (total - maxBytes)));
      return { text: utf8.decode(Buffer.concat(chunks)), cut: true };
    }
    chunks.push(value);
  }
  return { text: utf8.decode(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)), cut: false };
}

/**
 * Settles with `work`, or rejects once `deadline` fires: the deadline holds even for a `fetch`
 * whose body ignores the abort signal.
 */
function beforeDeadline<T>(work: Promise<T>, deadline: AbortSignal): Promise<T> {
  if (deadline.aborted) {
    // Nobody waits for `work` any more; its own failure must not surface as an unhandled rejection.
    work.catch(() => undefined);
    return Promise.reject(deadline.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(deadline.reason);
    deadline.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => deadline.removeEventListener('abort', onAbort));
  });
}

export function formatSeconds(ms: number): string {
  const seconds = ms / 1000;
  return `${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} s`;
}
