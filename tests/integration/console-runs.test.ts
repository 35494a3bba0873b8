import assert from 'node:assert/strict';
import { afterEach, beforeEach, test } from 'node:test';
import type { Core } from '../../electron/core/index.ts';
import type { PanelEvent } from '../../shared/contract/events.ts';
import { ANSWER_MAX_BYTES, CELL_VALUE_MAX_CHARS } from '../../shared/operations-console.ts';
import { longestHold, rejectsWith, tempDir, waitUntil, writesOnly } from '../support/helpers.ts';
import { DEMO_USER, type PanelStyle, type ReferencePanel, startReferencePanel } from '../support/reference-panel/server.ts';
import { coreWithEvents } from '../support/signed-in-core.ts';

/**
 * The same operation across panels (`callOperationOnPanels`) over real panels of every generation:
 * one name for all (`users.listUsers` reaches 2.33's `listUsers`), results in the order asked with
 * the value at a field, one slow and one failing panel, cancel, one run at a time, writes only
 * when allowed (each recorded); a 4 MiB answer cut to text; the token in no result or event.
 */

let dir: Awaited<ReturnType<typeof tempDir>>;
let panels: ReferencePanel[] = [];
let core: Core;
let events: PanelEvent[];
beforeEach(async () => {
  dir = await tempDir();
  ({ core, events } = coreWithEvents(dir.path, { timeoutMs: 5000 }));
});
afterEach(async () => {
  await Promise.all(panels.map((panel) => panel.close()));
  panels = [];
  await dir.cleanup();
});

async function signedInPanels(styles: Exclude<PanelStyle, 'simple'>[]): Promise<{ ids: string[]; tokens: string[] }> {
  const ids: string[] = [];
  for (const style of styles) {
    const panel = await startReferencePanel({ style });
    panels.push(panel);
    const { id } = await core.addPanel({ address: panel.url });
    await core.logIn(id, { email: DEMO_USER.email, password: DEMO_USER.password });
    ids.push(id);
  }
  return { ids, tokens: panels.flatMap((panel) => panel.issuedTokens()) };
}

const listUsers = { operation: 'users.listUsers', input: null };

test('a read across panels of every generation: results in the order asked, the field value, progress for each, no token', async () => {
  const { ids, tokens } = await signedInPanels(['public', 'trpc', 'rpc']);
  const results = await core.callOperationOnPanels(ids, listUsers, { field: '[0].email' });
  assert.deepEqual(
    results.map((result) => [result.panelId, result.outcome, result.status, result.value]),
    ids.map((id) => [id, 'done', 200, DEMO_USER.email]),
  );
  const progress = events.filter((event) => event.type === 'operationProgress');
  assert.equal(progress.length, 3);
  assert.deepEqual(progress.at(-1)?.type === 'operationProgress' && [progress.at(-1)!.done, progress.at(-1)!.total], [3, 3]);
  // A container as a cell: its JSON, secret fields masked, shortened.
  const whole = await core.callOperationOnPanels(ids.slice(0, 1), listUsers, { field: '[0]' });
  const cell = whole[0]!.value as string;
  assert.ok(cell.length <= CELL_VALUE_MAX_CHARS);
  assert.doesNotMatch(cell, /demo-api-token|\$2b\$/);
  const text = JSON.stringify([results, whole, events]);
  for (const token of tokens) assert.ok(!text.includes(token));
});

test('one slow and one failing panel: each row says its own, the others are not held back; cancel starts no more', async () => {
  const { ids } = await signedInPanels(['public', 'public', 'public', 'public']);
  const [fast, slow, failing, signedOut] = ids as [string, string, string, string];
  panels[1]!.setFault('listUsers', { kind: 'latency', ms: 400 });
  panels[2]!.setFault('listUsers', { kind: 'drop-connection' });
  await core.logOut(signedOut);
  const results = await core.callOperationOnPanels(ids, listUsers, { field: 'length' });
  const byId = new Map(results.map((result) => [result.panelId, result]));
  assert.equal(byId.get(fast)?.value, 1);
  assert.equal(byId.get(slow)?.outcome, 'done');
  assert.equal(byId.get(failing)?.outcome, 'failed');
  assert.equal(byId.get(signedOut)?.outcome, 'failed');
  assert.match(byId.get(signedOut)!.message!, /sign|log in/i);
  // A read is sent twice at most after a lost answer; never more.
  assert.equal(panels[2]!.requests.filter((request) => request.path === '/api/listUsers').length, 2);

  // Cancel: one at a time, the first slow; the rest are answered without a request.
  await core.updateSettings({ checkConcurrency: 1 });
  panels[1]!.setFault('listUsers', { kind: 'latency', ms: 2000 });
  for (const panel of panels) panel.requests.splice(0);
  const order = [slow, fast, fast, failing];
  const running = core.callOperationOnPanels([slow, fast, failing], listUsers, { field: null });
  await rejectsWith(core.callOperationOnPanels(order, listUsers, { field: null }), 'INVALID_INPUT', /already calling/);
  await waitUntil(() => panels[1]!.requests.some((request) => request.path === '/api/listUsers'));
  await core.cancelOperationRun();
  const cancelled = await running;
  assert.deepEqual(
    cancelled.map((result) => result.outcome),
    ['cancelled', 'cancelled', 'cancelled'],
  );
  assert.equal(panels[0]!.requests.filter((request) => request.path === '/api/listUsers').length, 0);
  assert.equal(panels[2]!.requests.filter((request) => request.path === '/api/listUsers').length, 0);
});

test('a write across panels goes only with allowWrite, and each panel’s write is recorded', async () => {
  const { ids } = await signedInPanels(['public', 'rpc']);
  const create = { operation: 'projects.createProject', input: { name: 'fleet-made' } };
  const refused = await core.callOperationOnPanels(ids, create, { field: null });
  assert.deepEqual(
    refused.map((result) => result.outcome),
    ['failed', 'failed'],
  );
  assert.match(refused[0]!.message!, /Not sent/);
  assert.ok(panels.every((panel) => !panel.requests.some((request) => /createProject/.test(request.path))));
  const done = await core.callOperationOnPanels(ids, create, { field: 'name', allowWrite: true });
  assert.deepEqual(
    done.map((result) => [result.outcome, result.status, result.value]),
    [
      ['done', 200, 'fleet-made'],
      ['done', 200, 'fleet-made'],
    ],
  );
  const entries = writesOnly((await core.listActivity()).entries);
  assert.deepEqual(entries.map((entry) => [entry.what.operation, entry.outcome]).sort(), [
    ['createProject', 'ok'],
    ['projects.createProject', 'ok'],
  ]);
});

test('a write across panels whose answer does not come is unknown, never failed, and nothing invites a retry; on one panel too', async () => {
  const { ids } = await signedInPanels(['public', 'public']);
  panels[1]!.setFault('createProject', { kind: 'drop-connection' });
  const create = { operation: 'createProject', input: { name: 'fleet-made' } };
  const results = await core.callOperationOnPanels(ids, create, { field: null, allowWrite: true });
  assert.deepEqual(
    results.map((result) => result.outcome),
    ['done', 'unknown'],
  );
  assert.match(results[1]!.message!, /^Outcome unknown: .*check the panel/);
  assert.doesNotMatch(results[1]!.message!, /try (it )?again|retry/i);
  assert.equal(panels[1]!.requests.filter((request) => /createProject/.test(request.path)).length, 1, 'sent once, never again by itself');

  const alone = await core.callOperation(ids[1]!, create).then(
    () => null,
    (error: { code: string; message: string }) => error,
  );
  assert.equal(alone?.code, 'OUTCOME_UNKNOWN');
  assert.doesNotMatch(alone!.message, /try (it )?again|retry/i);
  const entries = writesOnly((await core.listActivity()).entries);
  assert.deepEqual(entries.map((entry) => entry.outcome).sort(), ['ok', 'unknown', 'unknown']);
});

test('an answer over 4 MiB is cut to the start of its text; a 4 MiB one is read whole without holding main long', async () => {
  const { ids, tokens } = await signedInPanels(['public']);
  const [id] = ids as [string];
  const row = (index: number) => ({ projectName: `p${index}`, name: `service-${index}`, note: 'x'.repeat(60) });
  const rows = (count: number) => ({ projects: [], services: Array.from({ length: count }, (_, index) => row(index)) });
  const perRow = JSON.stringify(row(10_000)).length + 1;
  panels[0]!.services.setRawAnswer('listProjectsAndServices', rows(Math.floor((ANSWER_MAX_BYTES - 100) / perRow)));
  const { value: whole, heldMs } = await longestHold(() => core.callOperation(id, { operation: 'listProjectsAndServices', input: {} }));
  assert.equal(whole.truncated, false);
  assert.ok(whole.bytes > 3.9 * 1024 * 1024, `${whole.bytes}`);
  assert.ok(Array.isArray((whole.body as { services: unknown[] }).services));
  // Loose: the bench measures it; this catches a regression to seconds.
  assert.ok(heldMs < 1000, `main held ${heldMs} ms`);

  panels[0]!.services.setRawAnswer('listProjectsAndServices', { ...rows(70_000), leak: tokens.at(-1) });
  const cut = await core.callOperation(id, { operation: 'listProjectsAndServices', input: {} });
  assert.equal(cut.truncated, true);
  assert.equal(cut.body, null);
  assert.equal(cut.text?.length, 64 * 1024);
  assert.equal(cut.bytes, ANSWER_MAX_BYTES);

  // The token in an answer is replaced, in JSON and in text.
  panels[0]!.services.setRawAnswer('listProjectsAndServices', { echoed: tokens.at(-1), nested: [{ [tokens.at(-1)!]: 1 }] });
  const echoed = await core.callOperation(id, { operation: 'listProjectsAndServices', input: {} });
  assert.ok(!JSON.stringify(echoed).includes(tokens.at(-1)!));
  assert.match(JSON.stringify(echoed.body), /hidden by Paneldeck/);
});
