import assert from 'node:assert/strict';
import { createServer, type Socket } from 'node:net';
import { test } from 'node:test';
import { createNodeWriteFetch } from '../../../../electron/core/net/node-fetch.ts';

/**
 * Writes never go over a connection that was used before (RequestSettings.writeFetch): a network
 * stack may send a request again by itself when a reused connection is reset (Chromium's does, a
 * POST too: tests/browser/connection-resend.spec.ts). A raw HTTP/1.1 server that answers the first
 * request of a connection and resets the connection at its second shows each fetch's behaviour.
 */
async function rawServer(resetAt = 2) {
  const connections: { requests: string[] }[] = [];
  const server = createServer((socket: Socket) => {
    const connection = { requests: [] as string[] };
    connections.push(connection);
    let buffer = '';
    socket.on('error', () => undefined);
    socket.on('data', (chunk) => {
      buffer += chunk.toString('latin1');
      for (;;) {
        const end = buffer.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = buffer.slice(0, end);
        const length = Number(/content-length: *(\d+)/i.exec(head)?.[1] ?? 0);
        if (buffer.length < end + 4 + length) return;
        buffer = buffer.slice(end + 4 + length);
        connection.requests.push(head.split(' ')[0]!);
        if (connection.requests.length < resetAt) socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\nok');
        else return void socket.resetAndDestroy();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/write`;
  return { url, connections, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const posts = (connections: readonly { requests: string[] }[]) => connections.flatMap((one) => one.requests).filter((m) => m === 'POST');

test('the write fetch opens a connection of its own for every write: a reset never meets one, and none is sent twice', async () => {
  const server = await rawServer();
  try {
    const write = createNodeWriteFetch();
    for (let index = 0; index < 3; index++) {
      const answer = await write(server.url, { method: 'POST', body: `deploy ${index}`, headers: { 'content-type': 'application/json' } });
      assert.equal(answer.status, 200);
      assert.equal(await answer.text(), 'ok');
    }
    assert.deepEqual(
      server.connections.map((one) => one.requests),
      [['POST'], ['POST'], ['POST']],
    );
  } finally {
    await server.close();
  }
});

test('a write whose connection is reset once it arrived fails, and is never sent again by the fetch', async () => {
  const server = await rawServer(1);
  try {
    const write = createNodeWriteFetch();
    const outcome = await write(server.url, { method: 'POST', body: 'deploy' }).then(
      (answer) => answer.status,
      () => 'failed',
    );
    assert.equal(outcome, 'failed');
    assert.deepEqual(posts(server.connections), ['POST'], 'sent once');
  } finally {
    await server.close();
  }
});
