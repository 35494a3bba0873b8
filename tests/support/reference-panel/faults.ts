import type { ServerResponse } from 'node:http';
import { sendJson } from './http.ts';

/** Switchable faults: answers the way broken servers and proxies give them, in no panel's dialect. */

export type Fault =
  | { kind: 'latency'; ms: number }
  | { kind: 'server-error' }
  | { kind: 'bad-gateway-html' }
  | { kind: 'invalid-json' }
  | { kind: 'html-page' }
  | { kind: 'huge-body'; bytes?: number }
  | { kind: 'never-ending-body' }
  | { kind: 'redirect'; to: string; status?: number }
  | { kind: 'rate-limited'; retryAfterSeconds?: number }
  /** The connection is closed without a byte of answer: to the client, a lost answer. */
  | { kind: 'drop-connection' }
  /** Any status; `reason` replaces the standard reason phrase, `contentType` sends `body` as text. */
  | { kind: 'status'; status: number; body?: unknown; reason?: string; contentType?: string };

export async function applyFault(fault: Exclude<Fault, { kind: 'latency' }>, response: ServerResponse): Promise<void> {
  switch (fault.kind) {
    case 'server-error':
      return sendJson(response, 500, { error: 'Internal server error' });
    case 'bad-gateway-html':
      response.writeHead(502, { 'content-type': 'text/html' });
      response.end(
        '<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>',
      );
      return;
    case 'invalid-json':
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"user": {"id": "usr_1001", "email": ');
      return;
    case 'html-page':
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end('<!doctype html><html><body><form>Sign in to the proxy</form></body></html>');
      return;
    case 'huge-body':
      return streamHugeBody(response, fault.bytes ?? 5 * 1024 * 1024);
    case 'never-ending-body':
      return streamForever(response);
    case 'redirect':
      response.writeHead(fault.status ?? 302, { location: fault.to });
      response.end();
      return;
    case 'rate-limited':
      response.writeHead(429, { 'content-type': 'application/json', 'retry-after': String(fault.retryAfterSeconds ?? 30) });
      response.end(JSON.stringify({ error: 'Too many requests' }));
      return;
    case 'drop-connection':
      response.socket?.destroy();
      return;
    case 'status':
      if (fault.reason !== undefined) response.statusMessage = fault.reason;
      if (fault.contentType !== undefined) {
        response.writeHead(fault.status, { 'content-type': fault.contentType });
        response.end(String(fault.body ?? ''));
        return;
      }
      return sendJson(response, fault.status, fault.body ?? { error: `Status ${fault.status}` });
  }
}

/** A valid JSON array that is larger than `bytes`, sent without a Content-Length. */
async function streamHugeBody(response: ServerResponse, bytes: number): Promise<void> {
  response.writeHead(200, { 'content-type': 'application/json' });
  const chunk = `${JSON.stringify('x'.repeat(64 * 1024 - 3))},`;
  response.write('[');
  for (let sent = 0; sent < bytes && !response.destroyed; sent += chunk.length) {
    if (!response.write(chunk)) await new Promise((resolve) => response.once('drain', resolve));
  }
  response.end('0]');
}

/** Headers, then a slow trickle of bytes that never completes, until the client hangs up. */
async function streamForever(response: ServerResponse): Promise<void> {
  response.writeHead(200, { 'content-type': 'application/json' });
  response.write('{"session": "');
  const timer = setInterval(() => response.write('.'), 50);
  await new Promise((resolve) => response.once('close', resolve));
  clearInterval(timer);
}

/** Waits, or stops waiting when the client hangs up (the response closes). */
export function delay(ms: number, response: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    response.once('close', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}
