import { type ClientRequest, type IncomingMessage, request as httpRequest } from 'node:http';
import { Agent, request as httpsRequest, type AgentOptions } from 'node:https';
import type { Duplex } from 'node:stream';
import { Readable } from 'node:stream';
import { connect as tlsConnect, type ConnectionOptions, type TLSSocket } from 'node:tls';
import { describeCertificate, judgeCertificate } from './certificate-trust.ts';
import type { FetchLike } from './http-client.ts';

/**
 * The fetch the core uses under Node: plain http through the global fetch, https through
 * `node:https` with a connection that is judged before anything is written on it (trust on first
 * use: the system's verdict, or the one certificate the operator trusted for the panel). The
 * app passes its own fetch over Chromium's network stack instead, with the same judge.
 */
export function createNodeFetch(): FetchLike {
  /** One keep-alive pool per trusted certificate: a connection judged under one is never reused under another. */
  const agents = new Map<string, Agent>();
  const agentFor = (trusted: string | null) => {
    const key = trusted ?? '';
    let agent = agents.get(key);
    if (!agent) {
      agent = new JudgingAgent(trusted, { keepAlive: true, maxSockets: 8 });
      agents.set(key, agent);
    }
    return agent;
  };
  return (url, init, tls) => {
    if (!url.startsWith('https:')) return fetch(url, init);
    return httpsFetch(url, init, agentFor(tls?.trustedCertificate ?? null));
  };
}

/**
 * The fetch writes go through under Node: the same judged connections, but a fresh one for each
 * request, closed after its answer, never one kept alive: no connection is ever reused for a write,
 * so nothing can send it again after a reset (`RequestSettings.writeFetch`).
 */
export function createNodeWriteFetch(): FetchLike {
  return (url, init, tls) => {
    if (!url.startsWith('https:')) return nodeFetch(url, init, false);
    return httpsFetch(url, init, new JudgingAgent(tls?.trustedCertificate ?? null, { keepAlive: false, maxSockets: 1 }));
  };
}

function httpsFetch(url: string, init: RequestInit, agent: Agent): Promise<Response> {
  return nodeFetch(url, init, agent);
}

/** One request through `node:http` or `node:https`; `agent` false: a connection of its own, closed after. */
function nodeFetch(url: string, init: RequestInit, agent: Agent | false): Promise<Response> {
  return new Promise<Response>((resolve, reject) => {
    let request: ClientRequest;
    try {
      const options = {
        method: init.method ?? 'GET',
        headers: { ...plainHeaders(init.headers), ...(agent === false ? { connection: 'close' } : {}) },
        agent,
        ...(init.signal ? { signal: init.signal } : {}),
      };
      request = url.startsWith('https:') ? httpsRequest(url, options) : httpRequest(url, options);
    } catch (error) {
      reject(error);
      return;
    }
    request.once('error', reject);
    request.once('response', (message: IncomingMessage) => {
      try {
        resolve(toResponse(message));
      } catch (error) {
        message.destroy();
        reject(error);
      }
    });
    request.end(typeof init.body === 'string' ? init.body : undefined);
  });
}

/** Statuses whose answer has no body by definition: `Response` refuses one. */
const NULL_BODY = new Set([101, 204, 205, 304]);

function toResponse(message: IncomingMessage): Response {
  const headers = new Headers();
  const raw = message.rawHeaders;
  for (let index = 0; index + 1 < raw.length; index += 2) {
    try {
      headers.append(raw[index]!, raw[index + 1]!);
    } catch {
      // A header the web's rules refuse is left out; the core reads only a few known ones.
    }
  }
  const status = message.statusCode ?? 0;
  if (status < 200 || status > 599) throw new Error(`The server answered with HTTP status ${status}, which is not an answer.`);
  const body = NULL_BODY.has(status) ? null : (Readable.toWeb(message) as ReadableStream<Uint8Array>);
  if (body === null) message.resume();
  return new Response(body, { status, headers });
}

function plainHeaders(headers: RequestInit['headers']): Record<string, string> {
  return Object.fromEntries(new Headers(headers).entries());
}

/**
 * An https agent whose connections are handed to requests only once the certificate was judged:
 * the request's headers and body (the password, the token) are written on the socket after that,
 * never before, and never on a refused one.
 */
export class JudgingAgent extends Agent {
  readonly #trusted: string | null;
  readonly #tunnel: Duplex | null;

  /** `tunnel`: a connection already open to the server (a proxy's CONNECT tunnel) that TLS is spoken over, for one request. */
  constructor(trusted: string | null, options: AgentOptions, tunnel: Duplex | null = null) {
    super(options);
    this.#trusted = trusted;
    this.#tunnel = tunnel;
  }

  override createConnection(options: ConnectionOptions, callback: (error: Error | null, socket?: Duplex) => void): Duplex | undefined {
    // The system's verdict is read after the handshake, not enforced by it: a certificate the
    // operator trusted must be able to pass although the system refuses it.
    const socket: TLSSocket = tlsConnect({ ...options, rejectUnauthorized: false, ...(this.#tunnel ? { socket: this.#tunnel } : {}) });
    let settled = false;
    const settle = (error: Error | null) => {
      if (settled) return;
      settled = true;
      socket.off('error', onError);
      if (error) {
        socket.destroy();
        callback(error);
      } else {
        callback(null, socket);
      }
    };
    const onError = (error: Error) => settle(error);
    socket.once('error', onError);
    socket.once('secureConnect', () => {
      const peer = socket.getPeerCertificate();
      if (!peer?.raw) {
        settle(new Error('The server presented no certificate.'));
        return;
      }
      const reason = socket.authorizationError;
      const rejection = judgeCertificate(
        {
          certificate: describeCertificate(peer.raw),
          systemTrusted: socket.authorized,
          systemReason: reason === null || reason === undefined ? null : String(reason),
        },
        this.#trusted,
      );
      settle(rejection);
    });
    return undefined;
  }
}
