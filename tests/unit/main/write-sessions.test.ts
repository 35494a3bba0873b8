import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type WriteSession, writeSessionsFetch } from '../../../electron/main/write-sessions.ts';

/** Sessions as the app makes them, recording what happens on each: connections closed, requests sent. */
function fakeSessions() {
  const log: string[] = [];
  const opened: string[] = [];
  const gates: (() => void)[] = [];
  const open = (pin: string | null, slot: number): WriteSession => {
    const name = `${pin ?? 'none'}#${slot}`;
    opened.push(name);
    return {
      closeAllConnections: async () => void log.push(`${name} closed`),
      fetch: async (url) => {
        log.push(`${name} sent ${new URL(url).pathname}`);
        await new Promise<void>((resolve) => gates.push(resolve));
        return new Response('ok');
      },
    };
  };
  return { log, opened, gates, open };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

test('each write goes over a session whose connections were closed first; writes at once get sessions of their own', async () => {
  const sessions = fakeSessions();
  const write = writeSessionsFetch({ open: sessions.open });
  const first = write('https://a.example/api/deployAppService', { method: 'POST' }, { trustedCertificate: null });
  const second = write('https://b.example/api/stopAppService', { method: 'POST' }, { trustedCertificate: null });
  await settle();
  assert.deepEqual(sessions.opened, ['none#0', 'none#1'], 'two writes at once: two sessions');
  assert.deepEqual(sessions.log, [
    'none#0 closed',
    'none#1 closed',
    'none#0 sent /api/deployAppService',
    'none#1 sent /api/stopAppService',
  ]);
  for (const release of sessions.gates.splice(0)) release();
  await Promise.all([first, second]);
  // A later write takes a free session again, its connections closed before it.
  const third = write('https://a.example/api/restartAppService', { method: 'POST' }, { trustedCertificate: null });
  await settle();
  for (const release of sessions.gates.splice(0)) release();
  await third;
  assert.deepEqual(sessions.opened, ['none#0', 'none#1']);
  assert.deepEqual(sessions.log.slice(-2), ['none#0 closed', 'none#0 sent /api/restartAppService']);
});

test('a pinned certificate has sessions of its own: a connection judged under one pin is never used under another', async () => {
  const sessions = fakeSessions();
  const write = writeSessionsFetch({ open: sessions.open });
  const pinned = write('https://self-signed.example/api/deployAppService', { method: 'POST' }, { trustedCertificate: 'AA:BB' });
  const plain = write('https://a.example/api/deployAppService', { method: 'POST' }, { trustedCertificate: null });
  await settle();
  for (const release of sessions.gates.splice(0)) release();
  await Promise.all([pinned, plain]);
  assert.deepEqual(sessions.opened, ['AA:BB#0', 'none#0']);
});

test('a failed write frees its session', async () => {
  let fail = true;
  const write = writeSessionsFetch({
    open: () => ({
      closeAllConnections: async () => undefined,
      fetch: async () => {
        if (fail) throw new Error('reset');
        return new Response('ok');
      },
    }),
  });
  await assert.rejects(write('https://a.example/api/x', { method: 'POST' }, { trustedCertificate: null }), /reset/);
  fail = false;
  assert.equal(await (await write('https://a.example/api/x', { method: 'POST' }, { trustedCertificate: null })).text(), 'ok');
});
