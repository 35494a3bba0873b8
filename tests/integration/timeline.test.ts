import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import { createCore, type Core } from '../../electron/core/index.ts';
import { ACTIONS_EVERY_CHECKS } from '../../electron/core/checks/panel-actions.ts';
import { tempDir, testEncryption } from '../support/helpers.ts';
import { DEMO_USER, type PanelStyle, type ReferencePanel, startReferencePanel } from '../support/reference-panel/server.ts';
import { DASHBOARD_USER } from '../support/reference-panel/service-actions-state.ts';
import { confirmations } from '../support/confirmations.ts';

/**
 * listTimeline over real HTTP against the reference panel in each generation: the checks read each
 * panel's actions history in their pass (every `ACTIONS_EVERY_CHECKS`th check, or when the state
 * changed), and the timeline merges it with Paneldeck's own log: who did what, newest first; a
 * failed read costs only its rows, never the panel's health; the token is in no entry.
 */

const credentials = { email: DEMO_USER.email, password: DEMO_USER.password };
const GENERATIONS: readonly Exclude<PanelStyle, 'simple'>[] = ['trpc', 'rpc', 'public'];

const panels = new Map<string, ReferencePanel>();
let dir: Awaited<ReturnType<typeof tempDir>>;
let core: Core;
before(async () => {
  for (const style of GENERATIONS) panels.set(style, await startReferencePanel({ style }));
});
after(() => Promise.all([...panels.values()].map((panel) => panel.close())));
afterEach(() => dir.cleanup());
beforeEach(async () => {
  dir = await tempDir();
  core = createCore({ dataDir: dir.path, encryption: testEncryption(), confirmWrite: confirmations().confirmWrite, timeoutMs: 5000 });
  for (const panel of panels.values()) {
    for (const record of panel.services.services()) panel.services.removeService(record.projectName, record.name);
    panel.services.addService({ projectName: 'shop', name: 'web', type: 'app' });
    panel.services.addService({ projectName: 'shop', name: 'db', type: 'postgres' });
    panel.setFault('listActions', null);
  }
});

const panelOf = (style: string) => {
  const panel = panels.get(style);
  assert.ok(panel);
  return panel;
};

const actionReads = (panel: ReferencePanel) => panel.requests.filter((request) => request.path.includes('listActions')).length;

async function signedIn(panel: ReferencePanel): Promise<{ id: string; token: string }> {
  const { id } = await core.addPanel({ address: panel.url, name: `Shop ${panel.style}` });
  await core.logIn(id, credentials);
  const token = panel.issuedTokens().at(-1);
  assert.ok(token);
  return { id, token };
}

for (const style of GENERATIONS) {
  describe(style, () => {
    test("a colleague's restart in the dashboard, Paneldeck's own restart and its log in, newest first, each with who", async () => {
      const panel = panelOf(style);
      const { id, token } = await signedIn(panel);
      const theirs = panel.serviceActions.beginAction('shop', 'db', 'restart');
      panel.serviceActions.finishAction(theirs, 'done');
      await core.runServiceAction(id, { projectName: 'shop', serviceName: 'web', action: 'restart' });
      const [check] = await core.checkPanels([id]);
      assert.equal(check?.ok, true);

      const { entries, unread } = await core.listTimeline({ panelId: id });
      assert.deepEqual(unread, []);
      assert.deepEqual(
        entries.map((entry) => `${entry.source} ${entry.kind} ${entry.serviceName ?? '-'} ${entry.outcome} ${entry.who}`),
        [
          `panel restart web ok Paneldeck (${DEMO_USER.email})`,
          'paneldeck restart web ok Paneldeck (demo@paneldeck.test)',
          `panel restart db ok ${DASHBOARD_USER.userEmail}`,
          'paneldeck logIn - ok Paneldeck',
        ],
      );
      assert.ok(!JSON.stringify(entries).includes(token), 'the token is in no entry');
    });

    test(`the actions are read at the first check, then every ${ACTIONS_EVERY_CHECKS}rd, and at once when the state changed`, async () => {
      const panel = panelOf(style);
      const { id } = await signedIn(panel);
      const before = actionReads(panel);
      for (let check = 0; check < ACTIONS_EVERY_CHECKS + 1; check++) await core.checkPanels([id]);
      assert.equal(actionReads(panel) - before, 2, 'read at the first check and again at the fourth');
      // A colleague stops a service: the next state read counts it down, and the actions are read with it.
      panel.services.setReplicas('shop', 'web', { actual: 0, desired: 0 });
      panel.serviceActions.finishAction(panel.serviceActions.beginAction('shop', 'web', 'stop'), 'done');
      await core.checkPanels([id]);
      assert.equal(actionReads(panel) - before, 3);
      const { entries } = await core.listTimeline({ panelId: id });
      assert.equal(entries[0]?.kind, 'stop');
      assert.equal(entries[0]?.whoKind, 'person');
    });

    test('a failed actions read costs only its rows: the check and the health stand, the panel is named unread', async () => {
      const panel = panelOf(style);
      const { id } = await signedIn(panel);
      panel.setFault('listActions', { kind: 'server-error' });
      const [check] = await core.checkPanels([id]);
      assert.equal(check?.ok, true);
      const [health] = await core.getFleetState();
      assert.equal(health?.problem, null);
      const { entries, unread } = await core.listTimeline({ panelId: id });
      assert.deepEqual(
        unread.map((one) => one.panelId),
        [id],
      );
      assert.deepEqual(
        entries.map((entry) => entry.source),
        ['paneldeck'],
      );
    });
  });
}
