import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import WebSocket, { type RawData } from 'ws';
import { PanelError } from '../../../shared/contract/errors.ts';
import { formatBytes } from '../../../shared/sizes.ts';
import { describeConnectionFailure } from './connection-errors.ts';
import { JudgingAgent } from './node-fetch.ts';
import { findProxyRoute, openTunnel, type ProxyResolver } from './proxy-tunnel.ts';

/**
 * The panel's log socket: a `ws` client over the connection the core makes itself. Over TLS that
 * is the connection the core's fetch makes (`JudgingAgent`: the system's verdict, or exactly the
 * certificate the operator trusted for the panel), judged before the upgrade request (which
 * carries the token in its URL) is written. Through the system's proxy when it names one
 * (proxy-tunnel.ts: a CONNECT tunnel, then the same TLS to the panel inside it). It only reads:
 * messages (bounded in size, checked by `ws` from the frame's header, so an oversized one is
 * refused unread), pings answered, closes. The URL holds the token, so no message here quotes it:
 * errors name the host and path only.
 */

export interface LogSocketOptions {
  /** `ws:` or `wss:`, with the token in its query. */
  url: URL;
  /** The SHA-256 fingerprint trusted for the panel; null: the system decides. */
  trustedCertificate: string | null;
  /** How long the panel may take to answer the upgrade. */
  connectTimeoutMs: number;
  /** The largest message taken; a larger one ends the socket with RESPONSE_TOO_LARGE. */
  maxMessageBytes: number;
  onMessage(text: string): void;
  /** Called once: null when the panel closed it cleanly or `close()` was called. */
  onEnd(error: PanelError | null): void;
  /** The system's proxy (proxy-tunnel.ts); without it the socket connects directly. */
  resolveProxy?: ProxyResolver | undefined;
  /**
   * Run right before the socket is made (its URL carries the token): throws to open nothing, the
   * error ending the socket. The sign-in it was asked under is checked there.
   */
  beforeConnect?: (() => void) | undefined;
}

export interface LogSocket {
  close(): void;
  /** Stops reading (the panel then waits: TCP's own backpressure), until `resume`. */
  pause(): void;
  resume(): void;
}

/** How far the socket got: an error means something else at each stage. */
type Stage = 'connecting' | 'upgraded' | 'open';

export function openLogSocket(options: LogSocketOptions): LogSocket {
  const secure = options.url.protocol === 'wss:';
  // What messages and the proxy resolver may name: never the query, which holds the token.
  const shown = new URL(`${secure ? 'https' : 'http'}://${options.url.host}${options.url.pathname}`);
  let socket: WebSocket | null = null;
  let stage: Stage = 'connecting';
  let ended = false;
  // Stops a proxy's tunnel still being opened when the socket ends first.
  const opening = new AbortController();
  const end = (error: PanelError | null) => {
    if (ended) return;
    ended = true;
    clearTimeout(timer);
    opening.abort();
    // At once: the log is only read, so nothing waits on the panel's answer to a close (which a
    // paused socket would not even read).
    socket?.terminate();
    options.onEnd(error);
  };
  const timer = setTimeout(
    () => end(new PanelError('TIMEOUT', `The panel at ${shown.host} did not open its log within ${options.connectTimeoutMs / 1000} s.`)),
    options.connectTimeoutMs,
  );
  const connect = (tunnel: Socket | null) => {
    if (ended) return void tunnel?.destroy();
    try {
      options.beforeConnect?.();
    } catch (error) {
      tunnel?.destroy();
      end(error instanceof PanelError ? error : new PanelError('NOT_SIGNED_IN', 'The log was not opened: the sign-in ended.'));
      return;
    }
    // wss: the judging agent hands the TLS connection over only once its certificate passed.
    const connection = secure
      ? { agent: new JudgingAgent(options.trustedCertificate, { keepAlive: false }, tunnel) }
      : tunnel
        ? { createConnection: () => tunnel }
        : {};
    const made = new WebSocket(options.url, {
      ...connection,
      maxPayload: options.maxMessageBytes,
      // No compression offered (a message's size is its frames'), no redirect followed (the token
      // goes to the panel's host only), bytes that are not UTF-8 shown as U+FFFD, not an end.
      perMessageDeflate: false,
      followRedirects: false,
      skipUTF8Validation: true,
    });
    socket = made;
    listen(made);
  };
  findProxyRoute(options.resolveProxy, shown)
    .then((route) => {
      if (route.kind === 'direct' || ended) return connect(null);
      const authority = `${shown.hostname}:${shown.port || (secure ? '443' : '80')}`;
      return openTunnel(route, authority, opening.signal).then(connect);
    })
    .catch((error: unknown) => end(error instanceof PanelError ? error : describeConnectionFailure(error, shown)));

  function listen(made: WebSocket): void {
    // Never removed: `ws` may report an error after the end (a handshake aborted by `terminate`).
    made.on('error', (error) => end(failure(error, stage, shown, options.maxMessageBytes)));
    made.once('unexpected-response', (_request, response: IncomingMessage) => {
      response.resume();
      end(refusal(response.statusCode ?? 0, shown));
    });
    made.once('upgrade', (response: IncomingMessage) => {
      clearTimeout(timer);
      stage = 'upgraded';
      // Once open, `ws` reports a broken connection only as a close: the operator is told why.
      // Before that, an error here is `ws` refusing the answer: its own 'error' says so.
      response.socket.on('error', (error) => {
        if (stage === 'open') end(describeConnectionFailure(error, shown));
      });
    });
    made.once('open', () => {
      stage = 'open';
    });
    made.on('message', (data: RawData) => {
      if (!ended) options.onMessage(messageText(data));
    });
    made.once('close', () => end(null));
  }

  return {
    close: () => {
      // A close frame without a code (the panel sees 1005), then the connection goes.
      if (!ended && socket?.readyState === WebSocket.OPEN) socket.close();
      end(null);
    },
    pause: () => socket?.pause(),
    resume: () => socket?.resume(),
  };
}

/** A message as text, binary or not: the log's frames are JSON, which is text. */
function messageText(data: RawData): string {
  const bytes = Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
  return bytes.toString('utf8');
}

/** `ws`'s codes for a frame or message longer than the client takes. */
const TOO_LONG = new Set(['WS_ERR_UNSUPPORTED_MESSAGE_LENGTH', 'WS_ERR_UNSUPPORTED_DATA_PAYLOAD_LENGTH']);

/** What a `ws` error means, by how far the socket got when it came. */
function failure(error: Error, stage: Stage, shown: URL, maxMessageBytes: number): PanelError {
  if (stage === 'connecting') return describeConnectionFailure(error, shown);
  if (stage === 'upgraded') {
    // The upgrade came, but its answer failed `ws`'s checks (the accept key, the upgrade header).
    return new PanelError('BAD_RESPONSE', `The panel at ${shown.host} answered the log request with something that is not a WebSocket.`, {
      cause: error,
    });
  }
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && TOO_LONG.has(code)) {
    return new PanelError(
      'RESPONSE_TOO_LARGE',
      `The panel at ${shown.host} sent a log message larger than ${formatBytes(maxMessageBytes)}, so Paneldeck stopped reading it.`,
      { cause: error },
    );
  }
  if (typeof code === 'string' && code.startsWith('WS_ERR_')) {
    return new PanelError('BAD_RESPONSE', `The panel at ${shown.host} sent a log frame that is not WebSocket.`, { cause: error });
  }
  return describeConnectionFailure(error, shown);
}

/** The error for an upgrade the panel answered with an ordinary HTTP status. */
function refusal(status: number, shown: URL): PanelError {
  const where = `${shown.host}${shown.pathname}`;
  if (status === 401 || status === 403) {
    return new PanelError('UNAUTHORIZED', `The panel refused the saved token for its log (HTTP ${status}). Log in again.`);
  }
  if (status === 404) return new PanelError('NOT_FOUND', `The panel has no log for this service at ${where} (HTTP 404).`);
  if (status >= 300 && status < 400) {
    return new PanelError('REDIRECT_REFUSED', `The panel redirected the log request (HTTP ${status}); Paneldeck does not follow it.`);
  }
  if (status >= 500) return new PanelError('SERVER_ERROR', `The panel failed to open its log at ${where} (HTTP ${status}).`);
  return new PanelError('BAD_RESPONSE', `The panel answered the log request at ${where} with HTTP ${status}, not a WebSocket.`);
}
