import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import { createCore, type Core } from '../../electron/core/index.ts';
import { rejectsWith, tempDir, testEncryption, waitUntil } from '../support/helpers.ts';
import { DEMO_USER, type PanelStyle, type ReferencePanel, startReferencePanel } from '../support/reference-panel/server.ts';
import { type Confirmations, confirmations } from '../support/confirmations.ts';

/**
 * cancelDeployment over real HTTP against the reference panel in each generation: `killAction
 * {id}` sent once after main's confirmation and the build ends killed; nothing sent without a yes;
 * a `noKill` action refused with no write at the panel; a lost answer is `unknown`, never resent.
 */

const credentials = { email: DEMO_USER.email, password: DEMO_USER.password };
const GENERATIONS: readonly Exclude<PanelStyle, 'simple'>[] = ['trpc', 'rpc', 'public'];
const web = { projectName: 'shop', serviceName: 'web' };

const panels = new Map<string, ReferencePanel>();
let dir: Awaited<ReturnType<typeof tempDir>>;
let core: Core;
let asked: Confirmations;
let answer = true;
let release: () => void = () => {};
before(async () => {
  for (const style of GENERATIONS) panels.set(style, await startReferencePanel({ style }));
});
after(() => Promise.all([...panels.values()].map((panel) => panel.close())));
afterEach(async () => {
  release();
  await dir.cleanup();
});
beforeEach(async () => {
  dir = await tempDir();
  answer = true;
  asked = confirmations(() => answer);
  core = createCore({ dataDir: dir.path, encryption: testEncryption(), confirmWrite: asked.confirmWrite, timeoutMs: 5000 });
  for (const panel of panels.values()) {
    for (const record of panel.services.services()) panel.services.removeService(record.projectName, record.name);
    panel.services.addService({ projectName: 'shop', name: 'web', type: 'app' });
    panel.serviceActions.setDeployTime(40);
    panel.requests.splice(0);
  }
});

const panelOf = (style: string) => {
  const panel = panels.get(style);
  assert.ok(panel);
  return panel;
};
const kills = (panel: ReferencePanel) => panel.requests.filter((request) => request.path.endsWith('killAction')).length;

async function signedIn(panel: ReferencePanel): Promise<string> {
  const { id } = await core.addPanel({ address: panel.url, name: `Shop ${panel.style}` });
  await core.logIn(id, credentials);
  return id;
}

/** A deploy of Paneldeck's that stays running (held at the panel) until killed; its id and its call's end. */
async function runningDeploy(panel: ReferencePanel, id: string): Promise<{ deploymentId: string; deploy: Promise<unknown> }> {
  release = panel.serviceActions.holdDeploys();
  const earlier = panel.serviceActions.actions().length;
  const deploy = core.runServiceAction(id, { ...web, action: 'deploy' }).catch((error: unknown) => error);
  await waitUntil(() => panel.serviceActions.actions().length > earlier);
  const deploymentId = panel.serviceActions.actions()[0]?.id;
  assert.ok(deploymentId);
  return { deploymentId, deploy };
}

for (const style of GENERATIONS) {
  describe(style, () => {
    test('cancel: asked once, killAction sent once, the build ends killed, recorded as cancelDeploy', async () => {
      const panel = panelOf(style);
      const id = await signedIn(panel);
      const { deploymentId, deploy } = await runningDeploy(panel, id);
      const listed = await core.listDeployments(id, web);
      assert.equal(listed.deployments[0]?.status, 'running');
      assert.equal(listed.deployments[0]?.noKill, undefined, 'a killable build carries no noKill');
      const result = await core.cancelDeployment(id, deploymentId);
      assert.deepEqual(result, { panelId: id, deploymentId, outcome: 'done', message: null });
      const cancels = asked.plans.filter((plan) => plan.title.startsWith('Cancel'));
      assert.equal(cancels.length, 1, 'asked once (the deploy had its own)');
      assert.match(cancels[0]?.title ?? '', /Cancel the deployment of shop\/web on Shop/);
      assert.equal(kills(panel), 1);
      await deploy;
      assert.equal(panel.serviceActions.action(deploymentId)?.status, 'killed');
      assert.equal((await core.getDeploymentLog(id, deploymentId)).status, 'killed');
      const entry = (await core.listActivity({ panelId: id })).entries.find((one) => one.what.action === 'cancelDeploy');
      assert.deepEqual([entry?.outcome, entry?.what.projectName, entry?.what.serviceName], ['ok', 'shop', 'web']);
    });

    test('no confirmation: nothing sent, the build runs on', async () => {
      const panel = panelOf(style);
      const id = await signedIn(panel);
      const { deploymentId } = await runningDeploy(panel, id);
      answer = false;
      await rejectsWith(core.cancelDeployment(id, deploymentId), 'NOT_CONFIRMED');
      assert.equal(kills(panel), 0);
      assert.equal(panel.serviceActions.action(deploymentId)?.status, 'running');
    });

    test('noKill: refused with no killAction at the panel and nothing asked', async () => {
      const panel = panelOf(style);
      const id = await signedIn(panel);
      const action = panel.serviceActions.beginAction('shop', 'web', 'deployment');
      action.noKill = true;
      const listed = await core.listDeployments(id, web);
      assert.equal(listed.deployments[0]?.noKill, true);
      await rejectsWith(core.cancelDeployment(id, action.id), 'INVALID_INPUT', /cannot be cancelled/);
      assert.equal(kills(panel), 0);
      assert.equal(asked.plans.length, 0);
      assert.equal(action.status, 'running');
    });

    test('no answer: unknown, never sent again; the build was killed at the panel', async () => {
      const panel = panelOf(style);
      const id = await signedIn(panel);
      const { deploymentId, deploy } = await runningDeploy(panel, id);
      panel.serviceActions.loseNextAnswer('killAction');
      const result = await core.cancelDeployment(id, deploymentId);
      assert.equal(result.outcome, 'unknown');
      assert.match(result.message ?? '', /may have been cancelled/);
      assert.equal(kills(panel), 1, 'never sent again');
      await deploy;
      assert.equal(panel.serviceActions.action(deploymentId)?.status, 'killed');
      const entry = (await core.listActivity({ panelId: id })).entries.find((one) => one.what.action === 'cancelDeploy');
      assert.equal(entry?.outcome, 'unknown');
    });
  });
}

test("a panel whose own catalogue lacks killAction: 'this panel's Easypanel has no …', nothing asked or sent", async () => {
  const panel = await startReferencePanel({ style: 'public', withoutOperations: ['killAction'] });
  try {
    panel.services.addService({ projectName: 'shop', name: 'web', type: 'app' });
    const id = await signedIn(panel);
    await core.getPanelFeatures(id);
    const action = panel.serviceActions.beginAction('shop', 'web', 'build');
    const from = panel.requests.length;
    await rejectsWith(
      core.cancelDeployment(id, action.id),
      'NOT_FOUND',
      /^This panel's Easypanel has no way to cancel a running action\.$/,
    );
    assert.equal(panel.requests.length, from, 'nothing sent');
    assert.equal(asked.plans.length, 0);
  } finally {
    await panel.close();
  }
});
