import assert from 'node:assert/strict';
import { afterEach, beforeEach, test } from 'node:test';
import { createCore, type Core } from '../../electron/core/index.ts';
import type { Fault } from '../support/reference-panel/faults.ts';
import { judgePanel } from '../../renderer/ui/panel-state.ts';
import { tempDir, testEncryption } from '../support/helpers.ts';
import { DEMO_USER, type ReferencePanel, startReferencePanel } from '../support/reference-panel/server.ts';

/**
 * Issue 31: a panel whose task stats and server stats come back as garbage (text, a list, the wrong
 * shape, an HTML page, broken JSON) is never OK. Against a reference Easypanel over loopback, the
 * core's own state read and the window's own judgement of it, as the panel list and the header use it.
 */

let dir: Awaited<ReturnType<typeof tempDir>>;
let panel: ReferencePanel;
let core: Core;
let id: string;
beforeEach(async () => {
  dir = await tempDir();
  panel = await startReferencePanel({ style: 'public', demoProjects: 3 });
  core = createCore({ dataDir: dir.path, encryption: testEncryption(), timeoutMs: 5000 });
  ({ id } = await core.addPanel({ address: panel.url, name: 'Garbage' }));
  await core.logIn(id, { email: DEMO_USER.email, password: DEMO_USER.password });
});
afterEach(async () => {
  await panel.close();
  await dir.cleanup();
});

/** What the window makes of the panel after one check. */
async function checkedState() {
  const [check] = await core.checkPanels([id]);
  assert.equal(check?.ok, true, 'a state not understood never fails the check: the sign-in works');
  const health = (await core.getFleetState()).find((one) => one.panelId === id);
  const listed = (await core.listPanels()).find((one) => one.id === id);
  assert.ok(health && listed);
  return { health, judged: judgePanel(listed, health) };
}

/** Garbage as a 200 answer: each is valid JSON Paneldeck cannot take for state (or no JSON at all). */
const GARBAGE: readonly { name: string; fault: Fault }[] = [
  { name: 'text', fault: { kind: 'status', status: 200, body: 'garbage' } },
  { name: 'a list', fault: { kind: 'status', status: 200, body: [1, 2, 3] } },
  { name: 'the wrong shape', fault: { kind: 'status', status: 200, body: { shop_web: 'running', ok: true } } },
  { name: 'an HTML page', fault: { kind: 'html-page' } },
  { name: 'broken JSON', fault: { kind: 'invalid-json' } },
];

test('a check of the panel as it is first: understood, its two services down named, so the garbage below is what changes it', async () => {
  const { health, judged } = await checkedState();
  assert.equal(health.problem, null);
  assert.equal(health.servicesDown, 2);
  assert.equal(health.downServices?.length, 2);
  assert.equal(judged.word, 'Degraded');
  assert.match(judged.reason ?? '', /^2 services down: \S+\/\S+, \S+\/\S+$/);
});

for (const { name, fault } of GARBAGE) {
  test(`garbage task stats and server stats (${name}): servicesDown null, a problem, state unknown, needs attention`, async () => {
    panel.setFault('getDockerTaskStats', fault);
    panel.setFault('getSystemStats', fault);
    const { health, judged } = await checkedState();
    assert.equal(health.servicesDown, null, 'never "0 down"');
    assert.equal(health.services, null);
    assert.ok(health.problem, 'says why');
    assert.equal(health.problem.routesMissing, false);
    assert.doesNotMatch(health.problem.message, new RegExp(panel.issuedTokens().join('|') || '^$'), 'never the token');
    assert.equal(judged.word, 'State unknown');
    assert.notEqual(judged.state, 'ok');
    assert.equal(judged.attention, true);
    assert.match(judged.reason ?? '', /^State unknown: /);
  });
}

test('garbage task stats alone (the server stats fine): still unknown, the load read', async () => {
  panel.setFault('getDockerTaskStats', { kind: 'status', status: 200, body: { shop_web: { actual: 'many' } } });
  const { health, judged } = await checkedState();
  assert.equal(health.servicesDown, null);
  assert.equal(health.cpuPercent, 12.5);
  assert.match(health.problem?.message ?? '', /task stats were not understood/);
  assert.equal(judged.word, 'State unknown');
});

test('garbage server stats alone (the task stats fine): unknown, never OK with blank figures', async () => {
  panel.setFault('getSystemStats', { kind: 'status', status: 200, body: { cpuInfo: 'busy', memInfo: [] } });
  const { health, judged } = await checkedState();
  assert.equal(health.cpuPercent, null);
  assert.match(health.problem?.message ?? '', /server stats were not understood/);
  assert.notEqual(judged.state, 'ok');
  assert.equal(judged.attention, true);
});
