import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createPanelApi, isPanelApiFailure, unwrapAnswer, type PanelApiFailure } from '../../../shared/contract/bridge.ts';
import type { PanelApi } from '../../../shared/contract/contract.ts';
import { PanelError } from '../../../shared/contract/errors.ts';
import { channelOf, methodNames } from '../../../shared/contract/methods.ts';
import { registerPanelApi, type IpcCallEvent } from '../../../electron/main/ipc-registrar.ts';
import type { Log, LogFields } from '../../../electron/core/log/log.ts';
import { APP_FRAME, APP_ORIGIN, fakeIpc, registeredIpc } from '../../support/fake-ipc.ts';
import { suiteCore } from '../../support/helpers.ts';

/** A core whose every method records that it ran and then fails with `error`. */
function failingCore(error: Error, calls: string[]): PanelApi {
  const core: Partial<Record<string, () => Promise<never>>> = {};
  for (const method of methodNames) {
    core[method] = async () => {
      calls.push(method);
      throw error;
    };
  }
  return core as unknown as PanelApi;
}

/** A `Log` that keeps its entries as given, before any redaction, so a test sees what was passed. */
function capturingLog(): Log & { entries: { level: string; event: string; fields?: LogFields }[] } {
  const entries: { level: string; event: string; fields?: LogFields }[] = [];
  const at = (level: string) => (event: string, fields?: LogFields) => {
    entries.push({ level, event, ...(fields ? { fields } : {}) });
  };
  return { entries, info: at('info'), warn: at('warn'), error: at('error') };
}

async function failureOf(promise: Promise<unknown>): Promise<PanelApiFailure> {
  try {
    await promise;
  } catch (caught) {
    assert.ok(isPanelApiFailure(caught), `expected a PanelApiFailure, got ${String(caught)}`);
    return caught;
  }
  assert.fail('expected a rejection');
}

describe('IPC registrar', () => {
  const core = suiteCore();

  test('registers one channel per contract method and nothing else; the unregister removes them all', () => {
    const ipc = fakeIpc();
    const unregister = registerPanelApi({ ipc, core: core(), appOrigins: [APP_ORIGIN] });
    assert.deepEqual([...ipc.handlers.keys()].sort(), methodNames.map(channelOf).sort());
    unregister();
    assert.equal(ipc.handlers.size, 0);
  });

  test('answers the app main frame with a value envelope', async () => {
    const ipc = registeredIpc({ core: core() });
    const added = await ipc.call(channelOf('addPanel'), { address: 'panel.example.com' });
    assert.equal((added as { ok: boolean }).ok, true);
    const listed = (await ipc.call(channelOf('listPanels'))) as { ok: true; value: { address: string }[] };
    assert.deepEqual(
      listed.value.map((panel) => panel.address),
      ['panel.example.com'],
    );
  });

  test('refuses a foreign sender with FORBIDDEN before the core runs', async () => {
    const calls: string[] = [];
    const ipc = registeredIpc({ core: failingCore(new Error('must not run'), calls) });
    const foreign: IpcCallEvent[] = [
      { senderFrame: null },
      { senderFrame: { url: `${APP_ORIGIN}/index.html`, parent: APP_FRAME.senderFrame } },
      { senderFrame: { url: 'https://evil.example/app', parent: null } },
      { senderFrame: { url: 'app://paneldeck.evil/index.html', parent: null } },
      { senderFrame: { url: 'file:///tmp/index.html', parent: null } },
      { senderFrame: { url: 'not a url', parent: null } },
    ];
    for (const event of foreign) {
      const answer = await ipc.callFrom(event, channelOf('listPanels'));
      assert.equal((answer as { error: { code: string } }).error.code, 'FORBIDDEN', JSON.stringify(event.senderFrame?.url));
    }
    assert.deepEqual(calls, []);
  });

  test('refuses arguments that do not fit the contract with INVALID_INPUT, core untouched', async () => {
    const calls: string[] = [];
    const ipc = registeredIpc({ core: failingCore(new Error('must not run'), calls) });
    const cases: [string, unknown[], RegExp][] = [
      ['addPanel', [], /Missing arguments/],
      ['addPanel', [{ address: 42 }], /Address must be text/],
      ['addPanel', [{ address: 'a.example', admin: true }], /Unexpected field: "admin"/],
      ['logIn', ['not-a-uuid', { email: 'a@b.c', password: 'x' }], /Panel id must be a UUID/],
      ['listPanels', ['extra'], /Too many arguments/],
      ['updatePanel', [crypto.randomUUID(), { tokenField: 'a..b' }], /Token field must be a dot path/],
    ];
    for (const [method, args, message] of cases) {
      const answer = (await ipc.call(channelOf(method as 'addPanel'), ...args)) as {
        ok: boolean;
        error: { code: string; message: string };
      };
      assert.equal(answer.ok, false);
      assert.equal(answer.error.code, 'INVALID_INPUT', `${method} ${JSON.stringify(args)}`);
      assert.match(answer.error.message, message);
    }
    assert.deepEqual(calls, []);
  });

  test('wraps the core\u2019s errors whole and a bug as a generic INTERNAL without its details', async (t) => {
    const logged = t.mock.method(console, 'error', () => undefined);
    const ipc = registeredIpc({ core: core() });
    const missing = (await ipc.call(channelOf('logOut'), crypto.randomUUID())) as { ok: false; error: { code: string } };
    assert.equal(missing.error.code, 'NOT_FOUND');

    const buggy = registeredIpc({ core: failingCore(new TypeError('secret-ish detail at /home/op'), []) });
    const answer = (await buggy.call(channelOf('listPanels'))) as { ok: false; error: { code: string; message: string } };
    assert.equal(answer.error.code, 'INTERNAL');
    assert.doesNotMatch(answer.error.message, /secret-ish|\/home/);
    // The bug is reported in main, by type and stack frames, never by its message.
    assert.equal(logged.mock.callCount(), 1);
    const report = String(logged.mock.calls[0]?.arguments[0]);
    assert.match(report, /^Paneldeck bug in listPanels: TypeError\n\s+at /);
    assert.doesNotMatch(report, /secret-ish/);
  });
});

describe('IPC registrar log', () => {
  const email = 'operator@example.com';
  const password = 'correct horse battery staple';

  test('a logIn call is logged by method, time and outcome, never with its email or password', async () => {
    const log = capturingLog();
    const calls: string[] = [];
    const ipc = registeredIpc({ core: failingCore(new PanelError('INVALID_CREDENTIALS', 'Wrong email or password.'), calls), log });
    const panelId = crypto.randomUUID();
    await ipc.call(channelOf('logIn'), panelId, { email, password });
    await ipc.call(channelOf('logIn'), 'not-a-uuid', { email, password });
    await ipc.callFrom({ senderFrame: null }, channelOf('logIn'), panelId, { email, password });
    assert.deepEqual(calls, ['logIn']);

    assert.deepEqual(
      log.entries.map(({ level, event, fields }) => ({ level, event, method: fields?.method, outcome: fields?.outcome })),
      [
        { level: 'info', event: 'ipc.call', method: 'logIn', outcome: 'INVALID_CREDENTIALS' },
        { level: 'info', event: 'ipc.call', method: 'logIn', outcome: 'INVALID_INPUT' },
        { level: 'warn', event: 'ipc.call', method: 'logIn', outcome: 'FORBIDDEN' },
      ],
    );
    for (const { fields } of log.entries) {
      assert.deepEqual(Object.keys(fields ?? {}).sort(), ['method', 'ms', 'outcome']);
      assert.equal(typeof fields?.ms, 'number');
    }
    const written = JSON.stringify(log.entries);
    assert.ok(!written.includes(password) && !written.includes(email) && !written.includes(panelId), written);
  });

  test('a successful call logs outcome ok and not its result', async () => {
    const log = capturingLog();
    const core = {
      ...failingCore(new Error('unused'), []),
      listPanels: async () => [{ name: 'Secret Project', token: 'tok_x' }],
    } as unknown as PanelApi;
    const ipc = registeredIpc({ core, log });
    await ipc.call(channelOf('listPanels'));
    assert.equal(log.entries.length, 1);
    assert.deepEqual({ ...log.entries[0]?.fields, ms: 0 }, { method: 'listPanels', ms: 0, outcome: 'ok' });
  });

  test('a bug goes to log.error by type and stack frames, not its message', async (t) => {
    t.mock.method(console, 'error', () => undefined);
    const log = capturingLog();
    const ipc = registeredIpc({ core: failingCore(new TypeError(`leaked ${password}`), []), log });
    await ipc.call(channelOf('listPanels'));
    const bug = log.entries.find((entry) => entry.level === 'error');
    assert.equal(bug?.event, 'ipc.bug');
    assert.equal(bug?.fields?.type, 'TypeError');
    assert.match(String((bug?.fields?.stack as string[] | undefined)?.[0]), /^at /);
    assert.equal(log.entries.at(-1)?.fields?.outcome, 'INTERNAL');
    assert.ok(!JSON.stringify(log.entries).includes(password));
  });
});

describe('bridge (createPanelApi)', () => {
  const core = suiteCore();
  const noEvents = () => () => undefined;

  test('onEvent passes on events main sends, never anything else, until unsubscribed', () => {
    const listeners = new Set<(payload: unknown) => void>();
    const api = createPanelApi(
      async () => ({ ok: true, value: null }),
      (listener) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    );
    const received: unknown[] = [];
    const unsubscribe = api.onEvent((event) => received.push(event));
    const send = (payload: unknown) => {
      for (const listener of listeners) listener(payload);
    };
    send({ type: 'checkProgress', done: 1, total: 2 });
    send({ type: 'made-up' });
    send('panelsChanged');
    send(null);
    unsubscribe();
    send({ type: 'checkProgress', done: 2, total: 2 });
    assert.deepEqual(received, [{ type: 'checkProgress', done: 1, total: 2 }]);
    assert.equal(listeners.size, 0);
    assert.throws(() => api.onEvent('not a function' as unknown as () => void), TypeError);
  });

  test('has exactly the contract\u2019s methods, frozen, each on its own channel with its arguments', async () => {
    const sent: unknown[][] = [];
    const api = createPanelApi(async (...call) => {
      sent.push(call);
      return { ok: true, value: 'answer' };
    }, noEvents);
    assert.deepEqual(Object.keys(api).sort(), [...methodNames, 'onEvent'].sort());
    assert.ok(Object.isFrozen(api));
    assert.equal(await api.logIn('id-1', { email: 'a@b.c', password: 'pw' }), 'answer');
    assert.deepEqual(sent, [['panelApi:logIn', 'id-1', { email: 'a@b.c', password: 'pw' }]]);
  });

  test('rejects with a plain PanelApiFailure that keeps its code through a structured copy', async () => {
    const api = createPanelApi(
      async () => ({ ok: false, error: { code: 'INVALID_CREDENTIALS', message: 'Wrong email or password.' } }),
      noEvents,
    );
    const failure = await failureOf(api.listPanels());
    assert.equal(failure.code, 'INVALID_CREDENTIALS');
    assert.ok(!(failure instanceof Error), 'an Error would lose its code crossing the contextBridge');
    // contextBridge copies plain objects whole, as structuredClone does.
    assert.deepEqual(structuredClone(failure), {
      name: 'PanelApiFailure',
      code: 'INVALID_CREDENTIALS',
      message: 'Wrong email or password.',
    });
  });

  test('turns a malformed answer into INTERNAL instead of passing it on', async () => {
    for (const answer of [
      undefined,
      null,
      'ok',
      {},
      { ok: true },
      { ok: false },
      { ok: false, error: { code: 'MADE_UP', message: 'x' } },
      { ok: false, error: { code: 'NOT_FOUND' } },
    ]) {
      const failure = await failureOf(Promise.resolve().then(() => unwrapAnswer(answer)));
      assert.equal(failure.code, 'INTERNAL', JSON.stringify(answer));
    }
  });

  test('end to end over the registrar: values and errors arrive as the core produced them', async () => {
    const ipc = registeredIpc({ core: core() });
    const api = createPanelApi(ipc.call, noEvents);
    const panel = await api.addPanel({ address: 'https://Panel.Example.com/api/', name: 'Main' });
    assert.equal(panel.baseUrl, 'https://panel.example.com/api');
    const duplicate = await failureOf(api.addPanel({ address: 'panel.example.com' }));
    assert.equal(duplicate.code, 'DUPLICATE_PANEL');
    const notSignedIn = await failureOf(api.getSession(panel.id));
    assert.equal(notSignedIn.code, 'NOT_SIGNED_IN');
  });

  test('a PanelError thrown in main keeps code and message across', async () => {
    const ipc = registeredIpc({ core: failingCore(new PanelError('TIMEOUT', 'The panel took too long.'), []) });
    const api = createPanelApi(ipc.call, noEvents);
    assert.deepEqual(
      { ...(await failureOf(api.listPanels())) },
      { name: 'PanelApiFailure', code: 'TIMEOUT', message: 'The panel took too long.' },
    );
  });
});
