import type { IncomingMessage, ServerResponse } from 'node:http';

/** Small HTTP helpers of the reference panel. */

export interface RequestEvent {
  /** The request's path, e.g. `/api/getSession`. */
  path: string;
  /**
   * `arrived` first; then `answered` once the panel has handed over its whole answer, or `hung-up`
   * when the client closed the connection before that (a cancelled request).
   */
  phase: 'arrived' | 'answered' | 'hung-up';
}

export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  response.end(text);
}

export function nest(path: readonly string[], value: string): unknown {
  return path.reduceRight<unknown>((inner, key) => ({ [key]: inner }), value);
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    // A test server still should not buffer without end.
    if (size > 1024 * 1024) break;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Reports the request's arrival now, and its end: `hung-up` when the connection closes before the
 * answer was ended, else `answered` when the returned function is called (the handler is done, so
 * the whole answer is written: the client cannot have read it before this).
 */
export function observed(
  request: IncomingMessage,
  response: ServerResponse,
  observer: ((event: RequestEvent) => void) | undefined,
): () => void {
  if (!observer) return () => undefined;
  const path = new URL(request.url ?? '/', 'http://placeholder').pathname;
  let ended = false;
  const end = (phase: 'answered' | 'hung-up') => {
    if (ended) return;
    ended = true;
    observer({ path, phase });
  };
  observer({ path, phase: 'arrived' });
  response.once('close', () => {
    if (!response.writableEnded) end('hung-up');
  });
  return () => end('answered');
}

/** An answer to send: JSON, or with no body at all (`body` undefined, as 2.33 answers a call that returns nothing). */
export interface Answer {
  status: number;
  body?: unknown;
}

export function sendAnswer(response: ServerResponse, answer: Answer): void {
  if (answer.body !== undefined) return sendJson(response, answer.status, answer.body);
  response.writeHead(answer.status, { 'content-length': 0 });
  response.end();
}
