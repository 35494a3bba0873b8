import assert from 'node:assert/strict';
import { test } from 'node:test';
import { panelApiFailure, type PanelBridge } from '../../../../shared/contract/bridge.ts';
import { DEFAULT_SETTINGS } from '../../../../shared/settings.ts';
import type { PanelEvent } from '../../../../shared/contract/events.ts';
import type { AppStatus, Panel } from '../../../../shared/types.ts';
import { CommandRegistry } from '../../../../renderer/window/command-registry.ts';
import { connectWindow, loadPanelList, routePanelEvent, type EventTargets } from '../../../../renderer/window/event-router.ts';
import { PanelStore } from '../../../../renderer/window/panel-store.ts';
import { createWindowStores } from '../../../../renderer/window/window-stores.ts';
import { samplePanel } from '../../../support/panel-fixture.ts';

/** Main's events, taken apart in one place: each goes to the store or the command it concerns. */

const panel = samplePanel;

function targets(modal = false): EventTargets & { ran: string[] } {
  const ran: string[] = [];
  const commands = new CommandRegistry();
  commands.register('refresh', () => ran.push('refresh'));
  return { panelStore: new PanelStore(), ...createWindowStores(), commands, modalOpen: () => modal, ran };
}

const status: AppStatus = {
  settings: { ...DEFAULT_SETTINGS, panelList: { ...DEFAULT_SETTINGS.panelList, selectedPanelId: panel(2).id } },
  tokenProtection: { level: 'keyring', backend: 'test' },
  startupProblems: [],
};

test('data events go to the panel store', () => {
  const to = targets();
  to.panelStore.load([panel(1)]);
  routePanelEvent({ type: 'panelsChanged', panels: [panel(2)] }, to);
  routePanelEvent({ type: 'checkProgress', done: 1, total: 2 }, to);
  to.servicePickStore.choose(panel(1).id, { projectName: 'shop', serviceName: 'web' });
  to.servicePickStore.choose(panel(2).id, { projectName: 'shop', serviceName: 'db' });
  routePanelEvent({ type: 'panelsRemoved', panelIds: [panel(1).id] }, to);
  // The service a removed panel's Logs showed goes with it; the others' stay.
  assert.deepEqual([...to.servicePickStore.getSnapshot().picks.keys()], [panel(2).id]);
  const snapshot = to.panelStore.getSnapshot();
  assert.deepEqual(
    snapshot.panels?.map((one) => one.id),
    [panel(2).id],
  );
  assert.deepEqual(snapshot.progress, { done: 1, total: 2 });
});

test('a notification clicked shows its panel, when the panel is still there', () => {
  const to = targets();
  to.panelStore.load([panel(1), panel(2)]);
  to.locationStore.selectMany([panel(1).id, panel(2).id], panel(1).id);
  routePanelEvent({ type: 'focusPanel', panelId: panel(2).id }, to);
  assert.equal(to.locationStore.getSnapshot().selectedId, panel(2).id);
  assert.equal(to.locationStore.getSnapshot().marked.size, 0);
  routePanelEvent({ type: 'focusPanel', panelId: 'removed meanwhile' }, to);
  assert.equal(to.locationStore.getSnapshot().selectedId, panel(2).id);
});

test('a menu command runs through the registry, unless a dialog is open over the window', () => {
  const free = targets();
  routePanelEvent({ type: 'runCommand', command: 'refresh' }, free);
  routePanelEvent({ type: 'runCommand', command: 'find' }, free);
  assert.deepEqual(free.ran, ['refresh']);
  const behindDialog = targets(true);
  routePanelEvent({ type: 'runCommand', command: 'refresh' }, behindDialog);
  assert.deepEqual(behindDialog.ran, []);
});

test('a downloaded update goes to the status store', () => {
  const to = targets();
  routePanelEvent({ type: 'updateReady', version: '0.2.0' }, to);
  assert.deepEqual(to.statusStore.getSnapshot().update, { version: '0.2.0', dismissed: false });
});

/** A bridge that answers from `answers`, records what was asked, and hands out the event listener. */
function fakeApi(answers: { list: () => Promise<Panel[]>; status: () => Promise<AppStatus> }) {
  const asked: string[] = [];
  let listener: ((event: PanelEvent) => void) | null = null;
  const api: Pick<PanelBridge, 'onEvent' | 'listPanels' | 'getAppStatus'> = {
    onEvent(next) {
      asked.push('onEvent');
      listener = next;
      return () => {
        asked.push('stop');
        listener = null;
      };
    },
    listPanels: () => {
      asked.push('listPanels');
      return answers.list();
    },
    getAppStatus: () => {
      asked.push('getAppStatus');
      return answers.status();
    },
  };
  return { api, asked, send: (event: PanelEvent) => listener?.(event) };
}

test('connecting: listening first, then the list and the status; an event sent meanwhile is not lost', async () => {
  let answerList: (panels: Panel[]) => void = () => undefined;
  const main = fakeApi({ list: () => new Promise((resolve) => (answerList = resolve)), status: async () => status });
  const to = targets();
  const stop = connectWindow(main.api, to);
  assert.deepEqual(main.asked, ['onEvent', 'listPanels', 'getAppStatus']);
  main.send({ type: 'updateReady', version: '0.2.0' });
  answerList([panel(1), panel(2)]);
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(to.panelStore.getSnapshot().panels?.length, 2);
  assert.equal(to.statusStore.getSnapshot().update?.version, '0.2.0');
  assert.equal(to.statusStore.getSnapshot().status, status);
  assert.equal(to.locationStore.getSnapshot().selectedId, panel(2).id, 'the panel shown when the window last closed');
  stop();
  assert.deepEqual(main.asked.at(-1), 'stop');
});

test('a list that cannot be read is the window\u2019s error until a retry reads it; a status that cannot is none', async () => {
  let fail = true;
  const main = fakeApi({
    list: async () => {
      if (fail) throw panelApiFailure('STORAGE', 'The panel list could not be read.');
      return [panel(1)];
    },
    status: () => Promise.reject(new Error('no status')),
  });
  const to = targets();
  connectWindow(main.api, to);
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(to.statusStore.getSnapshot().listError, { code: 'STORAGE', message: 'The panel list could not be read.' });
  assert.equal(to.statusStore.getSnapshot().status, null);
  assert.equal(to.panelStore.getSnapshot().panels, null);
  fail = false;
  await loadPanelList(main.api, to);
  assert.equal(to.statusStore.getSnapshot().listError, null);
  assert.equal(to.panelStore.getSnapshot().panels?.length, 1);
});
