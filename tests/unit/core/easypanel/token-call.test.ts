import assert from 'node:assert/strict';
import { test } from 'node:test';
import { callWithToken, type TokenRequest } from '../../../../electron/core/easypanel/token-call.ts';
import type { PanelEndpoint, RequestSettings } from '../../../../electron/core/easypanel/panel-endpoints.ts';
import type { FetchLike } from '../../../../electron/core/net/http-client.ts';
import { rejectsWith } from '../../../support/helpers.ts';

/**
 * The one caller's abort rule, with a fetch the test answers by hand: a signal ends a read's wait
 * (its pause before a second try too), and never a write's request, whose answer is waited for.
 */

const panel: PanelEndpoint = {
  baseUrl: 'https://panel.test/api',
  generation: 'public',
  loginPath: '/login',
  sessionPath: '/getSession',
  tokenField: null,
  trustedCertificate: null,
};
const TOKEN = 'token-of-the-panel';

function settingsWith(fetch: FetchLike): RequestSettings {
  return { fetch, timeoutMs: 60_000, maxResponseBytes: 1024 * 1024 };
}

const request = (effect: TokenRequest['effect'], signal: AbortSignal): TokenRequest => ({
  effect,
  retry: true,
  method: effect === 'read' ? 'GET' : 'POST',
  url: 'https://panel.test/api/someOperation',
  body: effect === 'read' ? undefined : '{}',
  signal,
});

test("a signal ends a read's pause before its second try: CANCELLED at once, the second never sent", async (t) => {
  // The pause never ends by itself: only the abort can end it.
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const controller = new AbortController();
  let sent = 0;
  const fetch: FetchLike = async () => {
    sent++;
    // Aborted once the failure is handled and the caller pauses (every promise turn ran by then).
    setImmediate(() => controller.abort());
    throw Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNRESET' } });
  };
  await rejectsWith(
    callWithToken(settingsWith(fetch), panel, TOKEN, request('read', controller.signal), () => 'read'),
    'CANCELLED',
  );
  assert.equal(sent, 1);
});

test("a write's request never gets the signal: giving up waiting is not cancelling it, and its answer is read", async () => {
  const controller = new AbortController();
  const asked: { signal: AbortSignal; answer: (response: Response) => void }[] = [];
  let reached: () => void = () => undefined;
  const sentOnce = new Promise<void>((resolve) => (reached = resolve));
  const fetch: FetchLike = (_url, init) =>
    new Promise<Response>((answer) => {
      asked.push({ signal: init.signal!, answer });
      reached();
    });
  const writing = callWithToken(settingsWith(fetch), panel, TOKEN, request('write', controller.signal), async (response) => ({
    status: response.status,
    text: response.text,
  }));
  await sentOnce;
  controller.abort();
  assert.equal(asked[0]?.signal.aborted, false, "the write's request goes on");
  asked[0]!.answer(new Response('{"done":true}', { status: 200, headers: { 'content-type': 'application/json' } }));
  assert.deepEqual(await writing, { status: 200, text: '{"done":true}' });
  assert.equal(asked.length, 1);
});
