import { createHash, randomBytes } from 'node:crypto';
import { type ClientRequest, type IncomingMessage, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Socket } from 'node:net';
import { PanelError } from '../../../shared/errors.ts';
import { formatBytes } from '../../../shared/sizes.ts';
import { describeConnectionFailure } from './connection-errors.ts';
import { JudgingAgent } from './node-fetch.ts';

/**
 * A WebSocket client for the panel's log socket, over Node's http and https: the TLS connection is
 * the one the core's fetch makes (`JudgingAgent`: the system's verdict, or exactly the certificate
 * the operator trusted for the panel), judged before the upgrade request (which carries the token
 * in its URL) is written. Not a general client: it reads messages (bounded in size, checked from
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
}

export interface LogSocket {
  close(): void;
  /** Stops reading (the panel then waits: TCP's own backpressure), until `resume`. */
  pause(): void;
  resume(): void;
}

const ACCEPT_GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';
const OP = { continuation: 0, text: 1, binary: 2, close: 8, ping: 9, pong: 10 } as const;

export function openLogSocket(options: LogSocketOptions): LogSocket {
  const secure = options.url.protocol === 'wss:';
  const target = new URL(options.url);
  target.protocol = secure ? 'https:' : 'http:';
  // What messages may name: never the query, which holds the token.
  const shown = new URL(`${target.origin}${target.pathname}`);
  const key = randomBytes(16).toString('base64');
  const headers = { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-key': key, 'sec-websocket-version': '13' };
  const request: ClientRequest = secure
    ? httpsRequest(target, { headers, agent: new JudgingAgent(options.trustedCertificate, { keepAlive: false }) })
    : httpRequest(target, { headers, agent: false });
  let socket: Socket | null = null;
  let ended = false;
  const end = (error: PanelError | null) => {
    if (ended) return;
    ended = true;
    clearTimeout(timer);
    request.destroy();
    socket?.destroy();
    options.onEnd(error);
  };
  const timer = setTimeout(
    () => end(new PanelError('TIMEOUT', `The panel at ${shown.host} did not open its log within ${options.connectTimeoutMs / 1000} s.`)),
    options.connectTimeoutMs,
  );
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
  request.end();
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

/** A frame from the client: always masked (RFC 6455, 5.3). Only small control frames are sent. */
function clientFrame(opcode: number, payload: Buffer): Buffer {
  const mask = randomBytes(4);
  const masked = Buffer.from(payload.map((byte, index) => byte ^ (mask[index % 4] as number)));
  return Buffer.concat([Buffer.from([0x80 | opcode, 0x80 | payload.length]), mask, masked]);
}

interface FrameHandlers {
  message(text: string): void;
  control(opcode: number, payload: Buffer): void;
  fail(error: PanelError): void;
  host: string;
}

interface FrameHead {
  fin: boolean;
  opcode: number;
  headLength: number;
  length: number;
  mask: Buffer | null;
}

/**
 * Reads frames from the socket's chunks. A frame is taken once whole (at most `maxMessageBytes`,
 * checked from its header before its payload is waited for), and the chunks are joined once per
 * frame, not once per chunk.
 */
class FrameReader {
  readonly #max: number;
  readonly #on: FrameHandlers;
  #chunks: Buffer[] = [];
  #total = 0;
  #head: FrameHead | null = null;
  #message: Buffer[] | null = null;
  #messageBytes = 0;
  #failed = false;

  constructor(maxMessageBytes: number, handlers: FrameHandlers) {
    this.#max = maxMessageBytes;
    this.#on = handlers;
  }

  push(chunk: Buffer): void {
    this.#chunks.push(chunk);
    this.#total += chunk.length;
    while (!this.#failed) {
      this.#head ??= this.#readHead();
      const head = this.#head;
      if (!head || this.#total < head.headLength + head.length) return;
      const frame = this.#take(head.headLength + head.length);
      this.#head = null;
      const payload = frame.subarray(head.headLength);
      if (head.mask) for (let index = 0; index < payload.length; index++) payload[index]! ^= head.mask[index % 4]!;
      this.#frame(head, payload);
    }
  }

  #fail(error: PanelError): void {
    this.#failed = true;
    this.#chunks = [];
    this.#on.fail(error);
  }

  #readHead(): FrameHead | null {
    if (this.#total < 2) return null;
    const start = this.#peek(Math.min(this.#total, 14));
    const b1 = start[1]!;
    const size = b1 & 0x7f;
    const masked = (b1 & 0x80) !== 0;
    const headLength = 2 + (size === 126 ? 2 : size === 127 ? 8 : 0) + (masked ? 4 : 0);
    if (start.length < headLength) return null;
    const length = size === 126 ? start.readUInt16BE(2) : size === 127 ? Number(start.readBigUInt64BE(2)) : size;
    const opcode = start[0]! & 0x0f;
    const head = {
      fin: (start[0]! & 0x80) !== 0,
      opcode,
      headLength,
      length,
      mask: masked ? start.subarray(headLength - 4, headLength) : null,
    };
    if (opcode >= 8 ? length > 125 : this.#messageBytes + length > this.#max) {
      this.#fail(
        new PanelError(
          'RESPONSE_TOO_LARGE',
          `The panel at ${this.#on.host} sent a log message larger than ${formatBytes(this.#max)}, so Paneldeck stopped reading it.`,
        ),
      );
      return null;
    }
    return head;
  }

  #frame(head: FrameHead, payload: Buffer): void {
    if (head.opcode >= 8) return this.#on.control(head.opcode, Buffer.from(payload));
    if (head.opcode === OP.text || head.opcode === OP.binary) {
      this.#message = [];
      this.#messageBytes = 0;
    } else if (head.opcode !== OP.continuation || this.#message === null) {
      return this.#fail(new PanelError('BAD_RESPONSE', `The panel at ${this.#on.host} sent a log frame that is not WebSocket.`));
    }
    this.#message!.push(payload);
    this.#messageBytes += payload.length;
    if (!head.fin) return;
    const whole = this.#message!.length === 1 ? this.#message![0]! : Buffer.concat(this.#message!);
    this.#message = null;
    this.#messageBytes = 0;
    this.#on.message(whole.toString('utf8'));
  }

  /** The first `count` bytes, joining only the chunks needed. */
  #peek(count: number): Buffer {
    if (this.#chunks[0]!.length < count) this.#chunks = [Buffer.concat(this.#chunks)];
    return this.#chunks[0]!.subarray(0, count);
  }

  #take(count: number): Buffer {
    const joined = this.#chunks.length === 1 ? this.#chunks[0]! : Buffer.concat(this.#chunks);
    const rest = joined.subarray(count);
    this.#chunks = rest.length > 0 ? [rest] : [];
    this.#total -= count;
    // A copy: the frame is unmasked in place, and the rest must not share its memory.
    return Buffer.from(joined.subarray(0, count));
  }
}
