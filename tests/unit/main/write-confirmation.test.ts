import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  type ConfirmationIpc,
  type ConfirmationSender,
  type ConfirmationWindow,
  createWriteConfirmation,
} from '../../../electron/main/write-confirmation.ts';
import { CONFIRMATION_CHANNELS, type WritePlan } from '../../../shared/write-plan.ts';

type Handler = (event: { sender: ConfirmationSender }, ...args: unknown[]) => unknown;

/** ipcMain as the module uses it: the handlers, called as a page of `sender` would. */
function fakeIpc() {
  const handlers = new Map<string, Handler>();
  const ipc: ConfirmationIpc = {
    handle: (channel, listener) => void handlers.set(channel, listener),
    removeHandler: (channel) => void handlers.delete(channel),
  };
  const call = async (sender: number, channel: string, ...args: unknown[]) => {
    const handler = handlers.get(channel);
    if (!handler) throw new Error(`no handler for ${channel}`);
    return handler({ sender: { id: sender } }, ...args);
  };
  return { ipc, handlers, call };
}

/** Windows as the app opens them: each with its own page id; `gone()` as when the operator closes it. */
function fakeWindows() {
  const opened: { plan: WritePlan; contentsId: number; closed: boolean; gone(): void }[] = [];
  let nextId = 100;
  const openWindow = (plan: WritePlan): ConfirmationWindow => {
    const listeners: (() => void)[] = [];
    const record = {
      plan,
      contentsId: nextId++,
      closed: false,
      gone: () => {
        for (const listener of listeners.splice(0)) listener();
      },
    };
    opened.push(record);
    return {
      contentsId: record.contentsId,
      onGone: (listener) => void listeners.push(listener),
      close: () => {
        record.closed = true;
        record.gone();
      },
    };
  };
  return { opened, openWindow };
}

const plan = (id: string, typed: string | null = null): WritePlan => ({
  id,
  title: 'Restart web on acme-prod',
  detail: null,
  confirmLabel: 'Restart',
  panels: [
    {
      panelId: 'p1',
      name: 'acme-prod',
      address: 'https://acme.example',
      production: typed !== null,
      generation: 'Easypanel 2.33+',
      account: 'ops@acme.example',
      requests: [{ label: 'restart web in shop', request: 'POST /api/restartAppService' }],
    },
  ],
  leftOut: [],
  typedConfirmation: typed === null ? null : { text: typed, why: 'acme-prod is a production panel' },
});

/** Settles once the module has opened its window for the plan asked. */
async function opening(windows: ReturnType<typeof fakeWindows>, count: number) {
  while (windows.opened.length < count) await new Promise((resolve) => setImmediate(resolve));
  return windows.opened[count - 1]!;
}

test('the window shown gets the plan and its answer confirms exactly it; the window closes after', async () => {
  const { ipc, call } = fakeIpc();
  const windows = fakeWindows();
  const confirmation = createWriteConfirmation({ ipc, openWindow: windows.openWindow });
  const asked = confirmation.confirmWrite(plan('a'));
  const shown = await opening(windows, 1);
  assert.equal(((await call(shown.contentsId, CONFIRMATION_CHANNELS.plan)) as WritePlan).id, 'a');
  await call(shown.contentsId, CONFIRMATION_CHANNELS.answer, { planId: 'a', confirmed: true, typed: '' });
  assert.equal(await asked, true);
  assert.equal(shown.closed, true);
});

test('no other page may read the plan or answer it: the panel window is refused', async () => {
  const { ipc, call } = fakeIpc();
  const windows = fakeWindows();
  const confirmation = createWriteConfirmation({ ipc, openWindow: windows.openWindow });
  const asked = confirmation.confirmWrite(plan('a'));
  const shown = await opening(windows, 1);
  const panelWindow = 1;
  await assert.rejects(call(panelWindow, CONFIRMATION_CHANNELS.plan), /only Paneldeck’s own confirmation window/);
  await assert.rejects(
    call(panelWindow, CONFIRMATION_CHANNELS.answer, { planId: 'a', confirmed: true, typed: '' }),
    /only Paneldeck’s own confirmation window/,
  );
  // An answer about another plan, or not an answer at all, is refused too, and settles nothing.
  await assert.rejects(
    call(shown.contentsId, CONFIRMATION_CHANNELS.answer, { planId: 'b', confirmed: true, typed: '' }),
    /not about the plan/,
  );
  await assert.rejects(call(shown.contentsId, CONFIRMATION_CHANNELS.answer, { planId: 'a', confirmed: 'yes' }), /not about the plan/);
  assert.equal(shown.closed, false);
  await call(shown.contentsId, CONFIRMATION_CHANNELS.answer, { planId: 'a', confirmed: false, typed: '' });
  assert.equal(await asked, false);
});

test('a production panel: confirmed only with its name typed, which main checks itself', async () => {
  const { ipc, call } = fakeIpc();
  const windows = fakeWindows();
  const confirmation = createWriteConfirmation({ ipc, openWindow: windows.openWindow });
  const wrong = confirmation.confirmWrite(plan('a', 'acme-prod'));
  const first = await opening(windows, 1);
  await call(first.contentsId, CONFIRMATION_CHANNELS.answer, { planId: 'a', confirmed: true, typed: 'acme-pro' });
  assert.equal(await wrong, false, 'a page that says yes without the name is not a yes');
  const right = confirmation.confirmWrite(plan('b', 'acme-prod'));
  const second = await opening(windows, 2);
  await call(second.contentsId, CONFIRMATION_CHANNELS.answer, { planId: 'b', confirmed: true, typed: ' acme-prod ' });
  assert.equal(await right, true);
});

test('closing the window answers no; a second write waits for the first answer; dispose answers no', async () => {
  const { ipc, call, handlers } = fakeIpc();
  const windows = fakeWindows();
  const confirmation = createWriteConfirmation({ ipc, openWindow: windows.openWindow });
  const first = confirmation.confirmWrite(plan('a'));
  const second = confirmation.confirmWrite(plan('b'));
  const shownFirst = await opening(windows, 1);
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(windows.opened.length, 1, 'one confirmation at a time');
  shownFirst.gone();
  assert.equal(await first, false);
  const shownSecond = await opening(windows, 2);
  assert.equal(((await call(shownSecond.contentsId, CONFIRMATION_CHANNELS.plan)) as WritePlan).id, 'b');
  // The first window is gone: it can no longer answer for the second.
  await assert.rejects(
    call(shownFirst.contentsId, CONFIRMATION_CHANNELS.answer, { planId: 'b', confirmed: true, typed: '' }),
    /only Paneldeck’s own/,
  );
  confirmation.dispose();
  assert.equal(await second, false);
  assert.equal(handlers.size, 0);
});
