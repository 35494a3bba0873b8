import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { after, before, test } from 'node:test';
import { type WebSocket, WebSocketServer } from 'ws';
import { openLogSocket } from '../../electron/core/net/log-socket.ts';
import type { PanelError } from '../../shared/contract/errors.ts';

/**
 * The log socket's client against the `ws` server: it answers pings, takes fragmented messages,
 * ends on a close frame, sends only masked frames, and refuses an oversized message from its
 * header; against a server that answers by hand, it refuses what is not a WebSocket and says why
 * a connection ended.
 */

let server: Server;
let sockets: WebSocketServer;
let port: number;
let onConnection: (socket: WebSocket, request: IncomingMessage) => void = () => undefined;
/** A second server whose upgrades the test answers itself, on `rawPort`. */
let raw: Server;
let rawPort: number;
let onRawUpgrade: (socket: Socket, request: IncomingMessage, head: Buffer) => void = (socket) => socket.destroy();
/** Its upgraded sockets, which the server no longer tracks, to end with it. */
const rawSockets = new Set<Socket>();

before(async () => {
  server = createServer((_request, response) => response.writeHead(404).end());
  // `ws` refuses unmasked frames from a client (RFC 6455): every frame Paneldeck sends passes that check.
  sockets = new WebSocketServer({ server, path: '/ws/serviceLogs' });
  sockets.on('connection', (socket, request) => onConnection(socket, request));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  raw = createServer((_request, response) => response.writeHead(404).end());
  raw.on('upgrade', (request: IncomingMessage, socket: Socket, head: Buffer) => {
    rawSockets.add(socket);
    socket.on('error', () => socket.destroy());
    onRawUpgrade(socket, request, head);
  });
  await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
  rawPort = (raw.address() as AddressInfo).port;
});
after(async () => {
  sockets.close();
  await new Promise((resolve) => server.close(resolve));
  for (const socket of rawSockets) socket.destroy();
  await new Promise((resolve) => raw.close(resolve));
});

function open(maxMessageBytes = 1024 * 1024, path = '/ws/serviceLogs', at = port, connectTimeoutMs = 2000) {
  const messages: string[] = [];
  let resolveEnd: (error: PanelError | null) => void = () => undefined;
  const ended = new Promise<PanelError | null>((resolve) => (resolveEnd = resolve));
  const socket = openLogSocket({
    url: new URL(`ws://127.0.0.1:${at}${path}?token=secret-token`),
    trustedCertificate: null,
    connectTimeoutMs,
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

test('the upgrade request: the token only in its query, no compression offered, no origin or credentials sent', async () => {
  const asked = new Promise<IncomingMessage>((resolve) => {
    onConnection = (socket, request) => {
      resolve(request);
      socket.close(1000);
    };
  });
  const { ended } = open();
  const request = await asked;
  assert.equal(await ended, null);
  assert.equal(new URL(request.url ?? '', 'ws://x').searchParams.get('token'), 'secret-token');
  for (const header of ['sec-websocket-extensions', 'sec-websocket-protocol', 'origin', 'authorization', 'cookie']) {
    assert.equal(request.headers[header], undefined, header);
  }
  assert.doesNotMatch(JSON.stringify(request.rawHeaders), /secret-token/);
});

test('bytes that are not UTF-8 are shown as U+FFFD and a binary message is read as text; the log goes on', async () => {
  onConnection = (socket) => {
    socket.send(Buffer.from([0x7b, 0xff, 0x7d]), { binary: false });
    socket.send(Buffer.from('{"output":"bin"}'), { binary: true });
    socket.close(1000);
  };
  const { messages, ended } = open();
  assert.equal(await ended, null);
  assert.deepEqual(messages, ['{\uFFFD}', '{"output":"bin"}']);
});

/** The 101 answer a server owes `request` (RFC 6455, 4.2.2). */
const switching = (request: IncomingMessage, accept?: string) => {
  const key = String(request.headers['sec-websocket-key']);
  const expected = createHash('sha1').update(`${key}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`).digest('base64');
  return `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept ?? expected}\r\n\r\n`;
};

test('an upgrade answered with the wrong accept key is not a WebSocket: BAD_RESPONSE, naming no token', async () => {
  onRawUpgrade = (socket, request) => socket.write(switching(request, 'bm90IHRoZSBrZXk='));
  const { messages, ended } = open(1024, '/ws/serviceLogs', rawPort);
  const error = await ended;
  assert.equal(error?.code, 'BAD_RESPONSE');
  assert.match(error.message, /answered the log request with something that is not a WebSocket/);
  assert.ok(!error.message.includes('secret-token'), error.message);
  assert.deepEqual(messages, []);
});

test('a frame that breaks RFC 6455 (masked by the server) ends the log with BAD_RESPONSE', async () => {
  onRawUpgrade = (socket, request) => {
    const payload = Buffer.from('{"output":"x"}');
    const mask = Buffer.from([1, 2, 3, 4]);
    const masked = payload.map((byte, index) => byte ^ (mask[index % 4] as number));
    socket.write(switching(request));
    socket.write(Buffer.concat([Buffer.from([0x81, 0x80 | payload.length]), mask, masked]));
  };
  const { messages, ended } = open(1024, '/ws/serviceLogs', rawPort);
  const error = await ended;
  assert.equal(error?.code, 'BAD_RESPONSE');
  assert.match(error.message, /sent a log frame that is not WebSocket/);
  assert.deepEqual(messages, []);
});

test('a connection reset once open is a network error, not a clean end', async () => {
  onRawUpgrade = (socket, request) => {
    // A message, then a ping: the reset goes once the pong is back (the client read the message).
    socket.write(switching(request));
    socket.write(Buffer.concat([Buffer.from([0x81, 13]), Buffer.from('{"output":""}'), Buffer.from([0x89, 0])]));
    socket.once('data', () => socket.resetAndDestroy());
  };
  const { messages, ended } = open(1024, '/ws/serviceLogs', rawPort);
  const error = await ended;
  assert.deepEqual(messages, ['{"output":""}']);
  assert.equal(error?.code, 'NETWORK');
  assert.match(error.message, /closed before the panel answered/);
});

test('an upgrade never answered: TIMEOUT at the connect timeout, the request dropped', async () => {
  const dropped = new Promise<void>((resolve) => {
    onRawUpgrade = (socket) => socket.once('end', () => resolve());
  });
  const { ended } = open(1024, '/ws/serviceLogs', rawPort, 300);
  const error = await ended;
  assert.equal(error?.code, 'TIMEOUT');
  assert.match(error.message, /did not open its log within 0\.3 s/);
  await dropped;
});
