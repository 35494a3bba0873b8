import assert from 'node:assert/strict';
import { afterEach, beforeEach, test } from 'node:test';
import { type Core, createCore } from '../../../../electron/core/index.ts';
import { plainEvent } from '../../../../electron/main/window-events.ts';
import { createPanelApi, type PanelBridge } from '../../../../shared/contract/bridge.ts';
import { settle } from '../../../../shared/contract/envelope.ts';
import type { MethodName } from '../../../../shared/contract/methods.ts';
import { SERVICE_ACTIONS_PER_PANEL } from '../../../../shared/fleet-services.ts';
import { cancelServiceRun, followServiceRuns, startServiceRun } from '../../../../renderer/services/service-action-run.ts';
import { CommandRegistry } from '../../../../renderer/window/command-registry.ts';
import { connectWindow, type EventTargets } from '../../../../renderer/window/event-router.ts';
import { createPanelReads } from '../../../../renderer/window/panel-reads.ts';
import { PanelStore } from '../../../../renderer/window/panel-store.ts';
import { serviceActionKey } from '../../../../renderer/window/service-action-store.ts';
import { createWindowStores } from '../../../../renderer/window/window-stores.ts';
import { tempDir, testEncryption } from '../../../support/helpers.ts';
import { DEMO_USER, type ReferencePanel, type RequestEvent, startReferencePanel } from '../../../support/reference-panel/server.ts';
import { onlyServices } from '../../../support/signed-in-core.ts';

/**
 * A panel's Services tab runs its actions through main's one path (`runServiceActions`): main's
 * bound on the panel, each sent once, a failure stops nothing, the outcome said once in the
 * window's notice; Cancel; and a reload of the window finds the run again. Main here is the real
 * core over a 2.33 reference panel, its events routed to the window's stores as the preload does.
 */

const SERVICES = ['a', 'b', 'c', 'd', 'e'];
let dir: Awaited<ReturnType<typeof tempDir>>;
let panel: ReferencePanel;
let core: Core;
let panelId: string;
/** Deploy requests the panel has seen arrive, and how many are in flight now. */
let deploys: { arrived: number; inFlight: number; peak: number; onArrival: (count: number) => void };
/** The window main's events go to now: a reload replaces it. */
let page: ((payload: unknown) => void) | null;

function observe(event: RequestEvent): void {
  if (!event.path.endsWith('/deployAppService')) return;
  if (event.phase !== 'arrived') return void deploys.inFlight--;
  deploys.arrived++;
  deploys.inFlight++;
  deploys.peak = Math.max(deploys.peak, deploys.inFlight);
  deploys.onArrival(deploys.arrived);
}

beforeEach(async () => {
  dir = await tempDir();
  deploys = { arrived: 0, inFlight: 0, peak: 0, onArrival: () => undefined };
  page = null;
  panel = await startReferencePanel({ style: 'public', observer: observe });
  // Events as main sends them: copied plain, to the page loaded now, if any.
  core = createCore({ dataDir: dir.path, encryption: testEncryption(), timeoutMs: 3000, emit: (event) => page?.(plainEvent(event)) });
  ({ id: panelId } = await core.addPanel({ address: panel.url, name: 'Billing' }));
  await core.logIn(panelId, { email: DEMO_USER.email, password: DEMO_USER.password });
  onlyServices(panel, ...SERVICES.map((name) => ({ projectName: 'shop', name, type: 'app' as const })));
  panel.serviceActions.setDeployTime(0);
});
afterEach(async () => {
  await panel.close();
  await dir.cleanup();
});

/** A window loaded over the core: its stores fed by main's events, its runs followed to their end. */
async function openWindow() {
  const stores = createWindowStores();
  const targets: EventTargets = { ...stores, panelStore: new PanelStore(), commands: new CommandRegistry(), modalOpen: () => false };
  // The bridge as the preload builds it: envelopes in, failures as PanelApiFailure, events checked.
  const api: PanelBridge = createPanelApi(
    (channel, ...args) => {
      const method = core[channel.slice('panelApi:'.length) as MethodName] as (...given: unknown[]) => Promise<unknown>;
      return settle(() => method(...args));
    },
    (listener) => {
      page = listener;
      return () => undefined;
    },
  );
  connectWindow(api, targets);
  const reads = createPanelReads(api);
  followServiceRuns({ ...targets, api, services: reads.services });
  await until(targets.panelStore, () => targets.panelStore.getSnapshot().panels !== null);
  return { ...targets, reads, deps: { ...targets, api } };
}

/** Resolves once `check` holds, looked at on each change of `store`: waiting on events, never on time. */
function until(store: { subscribe(listener: () => void): () => void }, check: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    if (check()) return resolve();
    const stop = store.subscribe(() => {
      if (!check()) return;
      stop();
      resolve();
    });
  });
}

/** Resolves at the `count`th deploy request's arrival at the panel. */
const deployArrival = (count: number) =>
  new Promise<void>((resolve) => {
    deploys.onArrival = (arrived) => {
      if (arrived === count) resolve();
    };
  });

const items = (names: readonly string[]) => names.map((serviceName) => ({ panelId, projectName: 'shop', serviceName }));

test('several: main keeps two at a time on the panel, each sent once, a failure in the middle does not stop the others; the notice counts and quotes the panel', async () => {
  const window = await openWindow();
  const { serviceActionStore, statusStore } = window;
  panel.serviceActions.failDeploys('shop', 'b', { message: 'npm ERR! missing script: build' });
  const release = panel.serviceActions.holdDeploys();
  const seen = new Set<string>();
  const sent: string[] = [];
  serviceActionStore.subscribe(() => {
    const { states } = serviceActionStore.getSnapshot();
    const state = states.get(serviceActionKey(panelId, 'shop', 'e'));
    if (state) seen.add(state.phase);
    for (const name of SERVICES)
      if (states.get(serviceActionKey(panelId, 'shop', name))?.phase === 'sent' && !sent.includes(name)) sent.push(name);
  });
  const both = deployArrival(SERVICE_ACTIONS_PER_PANEL);
  startServiceRun(window.deps, { panelId }, 'deploy', items(SERVICES));
  await both;
  // The fourth deploy's answer is lost: its outcome is unknown, never a failure.
  deploys.onArrival = (arrived) => arrived === 4 && panel.serviceActions.loseNextAnswer('deployAppService');
  release();
  await until(statusStore, () => statusStore.getSnapshot().notice !== null);

  assert.deepEqual(sent, ['a', 'b', 'c', 'd', 'e']);
  assert.equal(deploys.arrived, SERVICES.length, 'each sent once');
  assert.equal(deploys.peak, SERVICE_ACTIONS_PER_PANEL);
  assert.ok(seen.has('queued') && seen.has('done'), 'the last service waited its turn, then ended');
  const phases = SERVICES.map((name) => serviceActionStore.getSnapshot().states.get(serviceActionKey(panelId, 'shop', name))?.phase);
  assert.deepEqual(phases, ['done', 'failed', 'done', 'unknown', 'done']);
  const notice = statusStore.getSnapshot().notice;
  assert.equal(notice?.failed, true);
  assert.match(notice?.text ?? '', /^Deploy of 5 services on Billing: 3 done, 1 failed, 1 with the outcome unknown\./);
  assert.match(notice?.text ?? '', /shop\/b failed: .*npm ERR! missing script: build/);
  assert.match(notice?.text ?? '', /Outcome unknown for shop\/d: .*the deploy may still be running: check the service\./);
  assert.equal(serviceActionStore.getSnapshot().run, null, 'the tab’s run is put away once its outcome is told');
});

test('one: the notice of one service, done or in the panel\u2019s words', async () => {
  const { deps, statusStore } = await openWindow();
  startServiceRun(deps, { panelId }, 'stop', items(['a']));
  await until(statusStore, () => statusStore.getSnapshot().notice !== null);
  assert.deepEqual(statusStore.getSnapshot().notice, { text: 'Stopped shop/a on Billing.', failed: false });
  panel.services.removeService('shop', 'a');
  startServiceRun(deps, { panelId }, 'restart', items(['a']));
  await until(statusStore, () => statusStore.getSnapshot().notice !== null);
  assert.deepEqual(statusStore.getSnapshot().notice, {
    text: 'Restart of shop/a on Billing failed: Billing has no service shop/a.',
    failed: true,
  });
});

test('Cancel in the tab: those not started are not sent, those sent finish, and the notice counts both', async () => {
  const { deps, statusStore, serviceActionStore } = await openWindow();
  const release = panel.serviceActions.holdDeploys();
  const both = deployArrival(SERVICE_ACTIONS_PER_PANEL);
  startServiceRun(deps, { panelId }, 'deploy', items(SERVICES));
  await both;
  cancelServiceRun(deps);
  assert.equal(serviceActionStore.getSnapshot().run?.cancelling, true);
  release();
  await until(statusStore, () => statusStore.getSnapshot().notice !== null);
  assert.equal(deploys.arrived, SERVICE_ACTIONS_PER_PANEL, 'nothing was sent after the cancel');
  assert.equal(statusStore.getSnapshot().notice?.text, 'Deploy of 5 services on Billing: 2 done, 3 cancelled before being sent.');
  assert.equal(serviceActionStore.getSnapshot().states.get(serviceActionKey(panelId, 'shop', 'e'))?.phase, 'cancelled');
});

test('a reload during the run finds it again: its phases, its Cancel, and its outcome at the end', async () => {
  panel.services.addService({ projectName: 'shop', name: 'f', type: 'app' });
  const first = await openWindow();
  const release = panel.serviceActions.holdDeploys();
  const both = deployArrival(SERVICE_ACTIONS_PER_PANEL);
  startServiceRun(first.deps, { panelId }, 'deploy', items(SERVICES));
  await both;
  // Main holds one run at a time: another, meanwhile, is refused whole, before anything is sent.
  startServiceRun(first.deps, { panelId }, 'restart', items(['f']));
  await until(first.statusStore, () => first.statusStore.getSnapshot().notice !== null);

  // The page is loaded again: the first window's promise is gone with it.
  const reloaded = await openWindow();
  const { serviceActionStore, statusStore } = reloaded;
  await until(serviceActionStore, () => serviceActionStore.getSnapshot().run !== null);
  const run = serviceActionStore.getSnapshot().run!;
  assert.deepEqual(run.from, { panelId }, 'a run on one panel’s services is that panel’s');
  assert.equal(run.action, 'deploy');
  const phaseOf = (name: string) => serviceActionStore.getSnapshot().states.get(serviceActionKey(panelId, 'shop', name))?.phase;
  assert.deepEqual(SERVICES.map(phaseOf), ['sent', 'sent', 'queued', 'queued', 'queued']);
  assert.equal(
    first.statusStore.getSnapshot().notice?.text,
    'Restart not started, nothing was sent: Paneldeck is already running an action on several services. Wait for it to finish, or cancel it, before starting another.',
  );
  assert.equal(first.serviceActionStore.getSnapshot().run?.action, 'deploy', 'the run under way stayed the window’s, with its Cancel');

  cancelServiceRun(reloaded.deps);
  release();
  await until(statusStore, () => statusStore.getSnapshot().notice !== null);
  assert.equal(statusStore.getSnapshot().notice?.text, 'Deploy of 5 services on Billing: 2 done, 3 cancelled before being sent.');
  assert.deepEqual(SERVICES.map(phaseOf), ['done', 'done', 'cancelled', 'cancelled', 'cancelled']);
  assert.equal(await core.getServiceActionRun(), null, 'main holds no run once it ended');
});
