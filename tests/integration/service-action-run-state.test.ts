import assert from 'node:assert/strict';
import { afterEach, beforeEach, test } from 'node:test';
import type { Core } from '../../electron/core/index.ts';
import type { PanelEvent } from '../../shared/contract/events.ts';
import { SERVICE_ACTIONS_PER_PANEL } from '../../shared/fleet-services.ts';
import { tempDir, waitUntil } from '../support/helpers.ts';
import { DEMO_USER, type ReferencePanel, startReferencePanel } from '../support/reference-panel/server.ts';
import { onlyServices, coreWithEvents } from '../support/signed-in-core.ts';

/**
 * Main holds the run of `runServiceActions`: `getServiceActionRun` gives each item's step while it
 * runs (for a window loaded meanwhile), null before and after; its end is told to the window as
 * `serviceActionsEnded` with the results its answer carries. Deploys are held by the panel, never
 * by sleeps.
 */

let dir: Awaited<ReturnType<typeof tempDir>>;
let panel: ReferencePanel;
let core: Core;
let events: PanelEvent[];
let panelId: string;
beforeEach(async () => {
  dir = await tempDir();
  ({ core, events } = coreWithEvents(dir.path));
  panel = await startReferencePanel({ style: 'rpc' });
  ({ id: panelId } = await core.addPanel({ address: panel.url, name: 'Billing' }));
  await core.logIn(panelId, { email: DEMO_USER.email, password: DEMO_USER.password });
  onlyServices(panel, ...['web', 'api', 'worker'].map((name) => ({ projectName: 'shop', name, type: 'app' as const })));
  panel.serviceActions.setDeployTime(0);
});
afterEach(async () => {
  await panel.close();
  await dir.cleanup();
});

const items = ['web', 'api', 'worker'].map((serviceName) => ({ projectName: 'shop', serviceName, panelId: '' }));
const deploysArrived = () => panel.requests.filter((request) => /deployService$/i.test(request.path)).length;

test('while it runs, each item’s step; Cancel is said; after, nothing held, and the end is an event with the results', async () => {
  assert.equal(await core.getServiceActionRun(), null, 'none before');
  const release = panel.serviceActions.holdDeploys();
  const asked = items.map((item) => ({ ...item, panelId }));
  const running = core.runServiceActions(asked, 'deploy');
  await waitUntil(() => deploysArrived() === SERVICE_ACTIONS_PER_PANEL);
  const during = await core.getServiceActionRun();
  assert.equal(during?.action, 'deploy');
  assert.equal(during?.cancelling, false);
  assert.deepEqual(
    during?.items.map(({ serviceName, phase, message }) => `${serviceName} ${phase} ${message}`),
    ['web sent null', 'api sent null', 'worker queued null'],
  );
  assert.deepEqual(
    during?.items.map(({ panelId: id, projectName }) => [id, projectName]),
    asked.map(({ panelId: id, projectName }) => [id, projectName]),
  );

  await core.cancelServiceActions();
  const cancelling = await core.getServiceActionRun();
  assert.equal(cancelling?.cancelling, true);
  assert.deepEqual(
    cancelling?.items.map(({ serviceName, phase }) => `${serviceName} ${phase}`),
    ['web sent', 'api sent', 'worker cancelled'],
  );
  release();
  const results = await running;
  assert.equal(await core.getServiceActionRun(), null, 'none after');
  const ends = events.filter((event) => event.type === 'serviceActionsEnded');
  assert.equal(ends.length, 1);
  assert.deepEqual(ends[0], { type: 'serviceActionsEnded', results });
  assert.deepEqual(
    results.map(({ serviceName, outcome }) => `${serviceName} ${outcome}`),
    ['web done', 'api done', 'worker cancelled'],
  );
  // The copy given out while it ran is the window's: the run went on without it.
  assert.deepEqual(
    during?.items.map(({ phase }) => phase),
    ['sent', 'sent', 'queued'],
  );
});

test('a run refused whole was never under way: no run to take up, no end told', async () => {
  const gone = { panelId: '00000000-0000-4000-8000-00000000dead', projectName: 'shop', serviceName: 'web' };
  await assert.rejects(core.runServiceActions([{ ...items[0]!, panelId }, gone], 'restart'), /no longer in the list/);
  assert.equal(await core.getServiceActionRun(), null);
  assert.equal(
    events.some((event) => event.type === 'serviceActionsEnded'),
    false,
  );
});
