import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { type WebSocket, WebSocketServer } from 'ws';
import { openLogSocket } from '../../electron/core/net/log-socket.ts';
import type { PanelError } from '../../shared/contract/errors.ts';

/**
 * Paneldeck's own WebSocket client against the `ws` server: it answers pings, takes fragmented
 * messages, ends on a close frame, sends only masked frames, and refuses an oversized message
 * from its header.
 */

let server: Server;
let sockets: WebSocketServer;
let port: number;
let onConnection: (socket: WebSocket) => void = () => undefined;

before(async () => {
  server = createServer((_request, response) => response.writeHead(404).end());
  // `ws` refuses unmasked frames from a client (RFC 6455): every frame Paneldeck sends passes that check.
  sockets = new WebSocketServer({ server, path: '/ws/serviceLogs' });
  sockets.on('connection', (socket) => onConnection(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
after(async () => {
  sockets.close();
  await new Promise((resolve) => server.close(resolve));
});

function open(maxMessageBytes = 1024 * 1024, path = '/ws/serviceLogs') {
  const messages: string[] = [];
  let resolveEnd: (error: PanelError | null) => void = () => undefined;
  const ended = new Promise<PanelError | null>((resolve) => (resolveEnd = resolve));
  const socket = openLogSocket({
    url: new URL(`ws://127.0.0.1:${port}${path}?token=secret-token`),
    trustedCertificate: null,
    connectTimeoutMs: 2000,
    maxMessageBytes,
    onMessage: (text) => messages.push(text),
    onEnd: resolveEnd,
  });
  return { socket, messages, ended };
}

test('answers a ping with a pong, takes a fragmented message whole, and ends cleanly on a close frame', async () => {
  const pongs: string[] = [];
  onConnection = (socket) => {
    // Closed once the pong is back, not after a fixed time a loaded machine may overrun.
    socket.on('pong', (data) => {
      pongs.push(String(data));
      socket.close(1000);
    });
    socket.ping('are you there');
    socket.send('{"output":"a', { fin: false });
    socket.send('b\\n"}', { fin: true });
  };
  const { messages, ended } = open();
  assert.equal(await ended, null);
  assert.deepEqual(messages, ['{"output":"ab\\n"}']);
  assert.deepEqual(pongs, ['are you there']);
});

test('close() sends a close frame the server accepts', async () => {
  const closed = new Promise<number>((resolve) => {
    onConnection = (socket) => {
      socket.send('{"output":""}');
      socket.on('close', (code) => resolve(code));
    };
  });
  const { socket, messages, ended } = open();
  while (messages.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
  socket.close();
  assert.equal(await ended, null);
  // 1005: a close frame without a code, as sent; not 1006 (the connection dropped without one).
  assert.equal(await closed, 1005);
});

test('a message larger than the limit is refused from its header, and the error names no token', async () => {
  onConnection = (socket) => socket.send('x'.repeat(70_000));
  const { messages, ended } = open(64 * 1024);
  const error = await ended;
  assert.equal(error?.code, 'RESPONSE_TOO_LARGE');
  assert.ok(!error.message.includes('secret-token'));
  assert.deepEqual(messages, []);
});

test('an upgrade refused with an HTTP status: its meaning, never the URL with the token', async () => {
  const { ended } = open(1024, '/elsewhere');
  const error = await ended;
  assert.equal(error?.code, 'BAD_RESPONSE');
  assert.match(error.message, /127\.0\.0\.1:\d+\/elsewhere with HTTP 400/);
  assert.ok(!error.message.includes('secret-token'), error.message);
});
