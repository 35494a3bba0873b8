import type { FetchLike } from '../core/index.ts';

/** The options this fetch gives `net.request` (a subset of Electron's ClientRequestConstructorOptions). */
export interface NetRequestOptions {
  method: string;
  url: string;
  headers: Record<string, string>;
  redirect: 'manual';
  /** No cookies or HTTP auth from the session are sent, none are stored, and no 'login' prompt. */
  credentials: 'omit';
  useSessionCookies: false;
  /** Answers carry tokens: keep them out of the session's disk cache. */
  cache: 'no-store';
  referrerPolicy: 'no-referrer';
}

/** The part of Electron's `IncomingMessage` read here. */
export interface IncomingMessageLike {
  readonly statusCode: number;
  readonly statusMessage: string;
  readonly headers: Record<string, string | string[]>;
  on(event: 'data', listener: (chunk: Buffer) => void): this;
  on(event: 'end', listener: () => void): this;
  on(event: 'error', listener: (error: Error) => void): this;
  on(event: 'aborted', listener: () => void): this;
  /** Not in Electron's typings, but there at run time (it is a Readable): used for backpressure when present. */
  pause?(): unknown;
  resume?(): unknown;
}

/** The part of Electron's `ClientRequest` used here. */
export interface ClientRequestLike {
  on(event: 'response', listener: (response: IncomingMessageLike) => void): this;
  on(
    event: 'redirect',
    listener: (statusCode: number, method: string, redirectUrl: string, responseHeaders: Record<string, string[]>) => void,
  ): this;
  on(event: 'error', listener: (error: Error) => void): this;
  on(event: 'abort', listener: () => void): this;
  abort(): void;
  end(chunk?: string): unknown;
}

export type NetRequest = (options: NetRequestOptions) => ClientRequestLike;

/** How much of a body is buffered before the network is paused. */
const HIGH_WATER_MARK = 64 * 1024;
const NULL_BODY_STATUSES = new Set([204, 205, 304]);

/**
 * A fetch over `net.request` (Chromium's stack: system proxy, OS certificates) that hands back a
 * redirect as a 3xx response with its Location instead of following it, as Node's fetch does with
 * `redirect: 'manual'` and `net.fetch` does not (electron/electron#43715): the core then decides.
 * It never logs: requests carry passwords and tokens.
 */
export function netRequestFetch(request: NetRequest): FetchLike {
  return (url, init) => {
    const signal = init.signal ?? null;
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (init.body !== undefined && init.body !== null && typeof init.body !== 'string') {
      return Promise.reject(new TypeError('This fetch sends string bodies only.'));
    }
    const body = init.body ?? undefined;
    return new Promise<Response>((resolve, reject) => {
      let client: ClientRequestLike;
      try {
        client = request(requestOptions(url, init));
      } catch (error) {
        reject(netError(error));
        return;
      }
      // 'head' until the status arrives, 'body' while it streams, then 'done': each event acts once.
      let phase: 'head' | 'body' | 'done' = 'head';
      let controller: ReadableStreamDefaultController<Uint8Array> | null = null;

      const finish = () => {
        phase = 'done';
        signal?.removeEventListener('abort', onAbort);
      };
      const fail = (error: unknown) => {
        if (phase === 'done') return;
        if (phase === 'head') reject(error);
        else controller?.error(error);
        finish();
      };
      const onAbort = () => {
        if (phase === 'done') return;
        client.abort();
        fail(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });

      client.on('redirect', (statusCode, _method, redirectUrl, responseHeaders) => {
        if (phase !== 'head') return;
        // Aborting inside the event is what keeps Electron from following it, or failing with "Redirect was cancelled".
        client.abort();
        finish();
        try {
          const headers = toHeaders(responseHeaders);
          headers.set('location', redirectUrl);
          resolve(new Response(null, { status: statusCode, headers }));
        } catch (error) {
          reject(error);
        }
      });

      client.on('response', (message) => {
        if (phase !== 'head') return;
        const status = message.statusCode;
        if (!Number.isInteger(status) || status < 200 || status > 599) {
          client.abort();
          fail(new Error('net::ERR_INVALID_RESPONSE'));
          return;
        }
        const head = { status, statusText: validStatusText(message.statusMessage), headers: toHeaders(message.headers) };
        if (NULL_BODY_STATUSES.has(status)) {
          client.abort();
          finish();
          resolve(new Response(null, head));
          return;
        }
        const stream = new ReadableStream<Uint8Array>(
          {
            start: (streamController) => {
              controller = streamController;
            },
            pull: () => {
              message.resume?.();
            },
            cancel: () => {
              if (phase === 'done') return;
              finish();
              client.abort();
            },
          },
          { highWaterMark: HIGH_WATER_MARK, size: (chunk) => chunk.byteLength },
        );
        message.on('data', (chunk) => {
          if (phase !== 'body' || !controller) return;
          controller.enqueue(new Uint8Array(chunk));
          if ((controller.desiredSize ?? 0) <= 0) message.pause?.();
        });
        message.on('end', () => {
          if (phase !== 'body') return;
          finish();
          controller?.close();
        });
        message.on('error', (error) => fail(netError(error)));
        message.on('aborted', () => fail(new Error('net::ERR_ABORTED')));
        phase = 'body';
        resolve(new Response(stream, head));
      });

      // Electron emits 'error' on the request even after the response (then on both): always listen.
      client.on('error', (error) => fail(netError(error)));
      client.on('abort', () => fail(new Error('net::ERR_ABORTED')));

      try {
        client.end(body);
      } catch (error) {
        client.abort();
        fail(netError(error));
      }
    });
  };
}

function requestOptions(url: string, init: RequestInit): NetRequestOptions {
  const headers: Record<string, string> = {};
  new Headers(init.headers).forEach((value, name) => {
    headers[name] = value;
  });
  return {
    method: init.method ?? 'GET',
    url,
    headers,
    redirect: 'manual',
    credentials: 'omit',
    useSessionCookies: false,
    cache: 'no-store',
    referrerPolicy: 'no-referrer',
  };
}

/** Response headers as `Headers`; cookies are dropped (nothing here keeps them), values Headers refuses are skipped. */
function toHeaders(raw: Record<string, string | string[]>): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (/^set-cookie2?$/i.test(name)) continue;
    for (const one of Array.isArray(value) ? value : [value]) {
      try {
        headers.append(name, one);
      } catch {
        // A header Chromium let through but the Fetch API refuses: the core reads none that matter.
      }
    }
  }
  return headers;
}

/** The reason phrase when `Response` accepts it, else none (it throws on some bytes). */
function validStatusText(text: string): string {
  return /^[\t\x20-\x7e\x80-\xff]*$/.test(text) ? text : '';
}

/**
 * An Error whose message is Chromium's net error name (`net::ERR_CONNECTION_REFUSED`), which the
 * core's connection-errors reads; Electron already says just that, this keeps it so.
 */
export function netError(error: unknown): Error {
  const message = error instanceof Error ? error.message : String(error);
  const name = /net::ERR_[A-Z0-9_]+/.exec(message)?.[0];
  return new Error(name ?? (message || 'net::ERR_FAILED'));
}
