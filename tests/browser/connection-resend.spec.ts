import { createServer, type Socket } from 'node:net';
import { expect, test } from '@playwright/test';

/**
 * Why the app's writes go over a connection of their own (RequestSettings.writeFetch,
 * electron/main/net-request-write-fetch.ts): Chromium's network stack, which Electron's
 * `net.request` is, sends a request again by itself when the connection it reused is reset before
 * an answer, a POST too (HttpNetworkTransaction's resend of a request on a reused connection). A
 * raw HTTP/1.1 server answers the first request of each connection and resets the connection at
 * the second: a deploy sent that way would reach the panel twice.
 */
test('Chromium sends a POST again after a reset on a reused keep-alive connection', async ({ page }) => {
  const posts: string[] = [];
  const server = createServer((socket: Socket) => {
    let served = 0;
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
        const body = buffer.slice(end + 4, end + 4 + length);
        buffer = buffer.slice(end + 4 + length);
        served++;
        if (head.startsWith('POST')) posts.push(body);
        if (served > 1) return void socket.resetAndDestroy();
        socket.write('HTTP/1.1 200 OK\r\nAccess-Control-Allow-Origin: *\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\nok');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  try {
    // The page's own load opens the first connection; each later request reuses one kept alive.
    await page.goto(`${origin}/`);
    const status = await page.evaluate(async (url) => {
      await fetch(url).then((answer) => answer.text());
      const answer = await fetch(url, { method: 'POST', body: 'deploy web', headers: { 'content-type': 'text/plain' } });
      return answer.status;
    }, `${origin}/write`);
    // The POST met a reset on a reused connection, and Chromium sent it again: once more on a new
    // connection, or more often when another idle connection (the favicon's) was reused first.
    expect(status).toBe(200);
    expect(posts.length).toBeGreaterThanOrEqual(2);
    expect(new Set(posts)).toEqual(new Set(['deploy web']));
  } finally {
    server.close();
  }
});
