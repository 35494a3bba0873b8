import { randomBytes } from 'node:crypto';
import { PanelError } from '../../../shared/contract/errors.ts';
import { formatBytes } from '../../../shared/sizes.ts';

/**
 * WebSocket frames (RFC 6455) for the log socket's client (log-socket.ts): the few frames it
 * sends, and a reader of the panel's frames that bounds a message from its header.
 */

export const OP = { continuation: 0, text: 1, binary: 2, close: 8, ping: 9, pong: 10 } as const;

/** A frame from the client: always masked (RFC 6455, 5.3). Only small control frames are sent. */
export function clientFrame(opcode: number, payload: Buffer): Buffer {
  const mask = randomBytes(4);
  const masked = Buffer.from(payload.map((byte, index) => byte ^ (mask[index % 4] as number)));
  return Buffer.concat([Buffer.from([0x80 | opcode, 0x80 | payload.length]), mask, masked]);
}

export interface FrameHandlers {
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
export class FrameReader {
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
