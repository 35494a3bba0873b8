import { createHash, randomBytes } from 'node:crypto';
import { type ClientRequest, type IncomingMessage, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Socket } from 'node:net';
import { PanelError } from '../../../shared/contract/errors.ts';
import { describeConnectionFailure } from './connection-errors.ts';
import { clientFrame, FrameReader, OP } from './log-frames.ts';
import { JudgingAgent } from './node-fetch.ts';
import { findProxyRoute, openTunnel, type ProxyResolver } from './proxy-tunnel.ts';

/**
 * A WebSocket client for the panel's log socket, over Node's http and https: the TLS connection is
 * the one the core's fetch makes (`JudgingAgent`: the system's verdict, or exactly the certificate
 * the operator trusted for the panel), judged before the upgrade request (which carries the token
 * in its URL) is written. Through the system's proxy when it names one (proxy-tunnel.ts: a CONNECT
 * tunnel, then the same TLS to the panel inside it). Not a general client: it reads messages (bounded in size, checked from
 * the frame's header, so an oversized one is refused unread), answers pings and closes. The URL
 * holds the token, so no message here quotes it: errors name the host and path only.
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
}

export interface LogSocket {
  close(): void;
  /** Stops reading (the panel then waits: TCP's own backpressure), until `resume`. */
  pause(): void;
  resume(): void;
}

const ACCEPT_GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';

export function openLogSocket(options: LogSocketOptions): LogSocket {
  const secure = options.url.protocol === 'wss:';
  const target = new URL(options.url);
  target.protocol = secure ? 'https:' : 'http:';
  // What messages may name: never the query, which holds the token.
  const shown = new URL(`${target.origin}${target.pathname}`);
  const key = randomBytes(16).toString('base64');
  const headers = { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-key': key, 'sec-websocket-version': '13' };
  let request: ClientRequest | null = null;
  let socket: Socket | null = null;
  let ended = false;
  // Stops a proxy's tunnel still being opened when the socket ends first.
  const opening = new AbortController();
  const end = (error: PanelError | null) => {
    if (ended) return;
    ended = true;
    clearTimeout(timer);
    opening.abort();
    request?.destroy();
    socket?.destroy();
    options.onEnd(error);
  };
  const timer = setTimeout(
    () => end(new PanelError('TIMEOUT', `The panel at ${shown.host} did not open its log within ${options.connectTimeoutMs / 1000} s.`)),
    options.connectTimeoutMs,
  );
  const send = (tunnel: Socket | null) => {
    if (ended) return void tunnel?.destroy();
    const agent = secure ? new JudgingAgent(options.trustedCertificate, { keepAlive: false }, tunnel) : undefined;
    const made = agent
      ? httpsRequest(target, { headers, agent })
      : tunnel
        ? httpRequest(target, { headers, createConnection: () => tunnel })
        : httpRequest(target, { headers, agent: false });
    request = made;
    listen(made);
    made.end();
  };
  findProxyRoute(options.resolveProxy, shown)
    .then((route) => {
      if (route.kind === 'direct' || ended) return send(null);
      const authority = `${target.hostname}:${target.port || (secure ? '443' : '80')}`;
      return openTunnel(route, authority, opening.signal).then(send);
    })
    .catch((error: unknown) => end(error instanceof PanelError ? error : describeConnectionFailure(error, shown)));
  /** The upgrade's answer: a refusal, or the socket whose frames are read. */
  function listen(request: ClientRequest): void {
    request.once('error', (error) => end(describeConnectionFailure(error, shown)));
    request.once('response', (response: IncomingMessage) => {
      response.resume();
      end(refusal(response.statusCode ?? 0, shown));
    });
    request.once('upgrade', (response: IncomingMessage, upgraded: Socket, head: Buffer) => {
      clearTimeout(timer);
      socket = upgraded;
      if (ended) return void upgraded.destroy();
      const expected = createHash('sha1').update(`${key}${ACCEPT_GUID}`).digest('base64');
      if (response.headers['sec-websocket-accept'] !== expected) {
        end(new PanelError('BAD_RESPONSE', `The panel at ${shown.host} answered the log request with something that is not a WebSocket.`));
        return;
      }
      const frames = new FrameReader(options.maxMessageBytes, {
        message: (text) => options.onMessage(text),
        control: (opcode, payload) => {
          if (opcode === OP.ping) upgraded.write(clientFrame(OP.pong, payload));
          if (opcode === OP.close) {
            upgraded.end(clientFrame(OP.close, Buffer.alloc(0)));
            end(null);
          }
        },
        fail: (error) => end(error),
        host: shown.host,
      });
      upgraded.on('data', (chunk: Buffer) => {
        if (!ended) frames.push(chunk);
      });
      upgraded.once('error', (error) => end(describeConnectionFailure(error, shown)));
      upgraded.once('close', () => end(null));
      if (head.length > 0) frames.push(head);
    });
  }
  return {
    close: () => {
      if (socket && !ended) socket.write(clientFrame(OP.close, Buffer.alloc(0)));
      end(null);
    },
    pause: () => socket?.pause(),
    resume: () => socket?.resume(),
  };
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
