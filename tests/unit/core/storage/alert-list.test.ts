import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import { AlertList } from '../../../../electron/core/storage/alert-list.ts';
import type { FlushTimer } from '../../../../electron/core/storage/check-history.ts';
import { openJsonFiles } from '../../../../electron/core/storage/document-store.ts';
import { type Alert, ALERTS_KEPT } from '../../../../shared/alerts.ts';
import { tempDir } from '../../../support/helpers.ts';

/** The alert list in alerts.json: bounded, coalesced, read back newest first, a damaged file set aside. */

let dir: Awaited<ReturnType<typeof tempDir>>;
beforeEach(async () => (dir = await tempDir()));
afterEach(() => dir.cleanup());

/** A timer that runs only when the test says. */
function manualTimer(): FlushTimer & { fire(): void; pending: number } {
  const runs = new Map<number, () => void>();
  let next = 0;
  return {
    set: (run) => {
      runs.set(++next, run);
      return next;
    },
    clear: (handle) => void runs.delete(handle as number),
    fire: () => {
      for (const [handle, run] of runs) {
        runs.delete(handle);
        run();
      }
    },
    get pending() {
      return runs.size;
    },
  };
}

const alert = (n: number): Alert => ({
  id: `a-${n}`,
  at: new Date(Date.UTC(2030, 0, 1) + n * 1000).toISOString(),
  panelId: 'p',
  panelName: 'Prod',
  kind: 'serviceDown',
  message: `shop/web-${n} on Prod is down.`,
  tab: 'services',
  service: `shop/web-${n}`,
  host: null,
  resolvedAt: null,
  acknowledgedAt: null,
});

const open = (timer: FlushTimer) => new AlertList(openJsonFiles(dir.path)('alerts', { secret: false }), { timer });

test('newest first, bounded to the last 500; many adds are one write when the timer fires', async () => {
  const timer = manualTimer();
  const list = open(timer);
  for (let n = 0; n < ALERTS_KEPT + 20; n++) list.add(alert(n));
  assert.equal(timer.pending, 1, 'one write scheduled for all of them');
  const listed = list.list();
  assert.equal(listed.length, ALERTS_KEPT);
  assert.equal(listed[0]!.id, `a-${ALERTS_KEPT + 19}`);
  assert.equal(listed.at(-1)!.id, 'a-20');
  timer.fire();
  await list.flush();
  assert.deepEqual(open(manualTimer()).list(), listed);
});

test('a stored entry that is not an alert is dropped alone; its tab follows from its kind', async () => {
  const good = { ...alert(1), tab: 'settings' };
  writeFileSync(join(dir.path, 'alerts.json'), JSON.stringify({ version: 1, alerts: [good, { id: 3 }, { ...alert(2), kind: 'other' }] }));
  assert.deepEqual(open(manualTimer()).list(), [{ ...alert(1), tab: 'services' }]);
});

test("a certificate alert keeps its domain across a start; another kind's domain, or one longer than DNS allows, is not kept", async () => {
  const certificate: Alert = { ...alert(1), kind: 'certificateExpiring', service: 'shop/web', host: 'shop.example.test' };
  const long: Alert = { ...alert(2), kind: 'certificateFailed', service: 'shop/web', host: `${'a'.repeat(250)}.test` };
  const other = { ...alert(3), host: 'shop.example.test' };
  writeFileSync(join(dir.path, 'alerts.json'), JSON.stringify({ version: 1, alerts: [certificate, long, other] }));
  assert.deepEqual(
    open(manualTimer())
      .list()
      .map((one) => one.host),
    [null, null, 'shop.example.test'],
  );
});

test('a damaged file is moved aside and the list starts empty', async () => {
  writeFileSync(join(dir.path, 'alerts.json'), '{"version": 1, "alerts": [');
  const list = open(manualTimer());
  assert.deepEqual(list.list(), []);
  list.add(alert(1));
  await list.flush();
  assert.equal(JSON.parse(readFileSync(join(dir.path, 'alerts.json'), 'utf8')).alerts.length, 1);
  assert.equal((await readdir(dir.path)).filter((name) => name.startsWith('alerts') && name !== 'alerts.json').length, 1);
});

test('an alerts file from before alerts had a life loads: its alerts open, its service unknown, no panel observed', () => {
  const old = {
    id: 'a-1',
    at: alert(1).at,
    panelId: 'p',
    panelName: 'Prod',
    kind: 'serviceDown',
    message: 'The service shop/web is down on Prod.',
    tab: 'services',
  };
  writeFileSync(join(dir.path, 'alerts.json'), JSON.stringify({ version: 1, alerts: [old] }));
  const list = open(manualTimer());
  assert.deepEqual(list.list(), [{ ...old, service: null, host: null, resolvedAt: null, acknowledgedAt: null }]);
  assert.equal(list.observation('p'), undefined);
  assert.deepEqual(
    list.unresolved('p').map((kept) => kept.id),
    ['a-1'],
  );
});

test("each panel's last observation is kept with the alerts; a damaged one is dropped alone; a forgotten panel loses its own", async () => {
  const list = open(manualTimer());
  const seen = { at: alert(5).at, observation: { answer: 'proper' as const, down: ['shop/web'], diskPercent: 42.5 }, version: '2.33.4' };
  list.observe('p', seen);
  list.observe('q', { at: alert(6).at, observation: { answer: null, down: null, diskPercent: null }, version: null });
  list.add(alert(1));
  assert.equal(list.update('a-1', { acknowledgedAt: alert(7).at })?.acknowledgedAt, alert(7).at);
  assert.equal(list.update('nope', { resolvedAt: alert(7).at }), undefined);
  await list.flush();
  const reopened = open(manualTimer());
  assert.deepEqual(reopened.observation('p'), seen);
  assert.equal(reopened.list()[0]!.acknowledgedAt, alert(7).at);
  const file = JSON.parse(readFileSync(join(dir.path, 'alerts.json'), 'utf8'));
  file.observations.q.answer = 'maybe';
  file.observations.r = { at: 'yesterday', answer: 'proper', down: [], diskPercent: 1 };
  writeFileSync(join(dir.path, 'alerts.json'), JSON.stringify(file));
  const damaged = open(manualTimer());
  assert.deepEqual(damaged.observation('p'), seen);
  assert.equal(damaged.observation('q'), undefined);
  assert.equal(damaged.observation('r'), undefined);
  damaged.forget('p');
  await damaged.flush();
  assert.equal(open(manualTimer()).observation('p'), undefined);
});

test('a large fleet: observations alone go to the journal, read back at the next start and folded in at compact', async () => {
  const list = open(manualTimer());
  const at = alert(1).at;
  const panel = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
  for (let n = 0; n < 5000; n++)
    list.observe(panel(n), { at, observation: { answer: 'proper', down: [], diskPercent: 40 }, version: null });
  list.add(alert(1));
  await list.flush();
  const journal = join(dir.path, 'alerts.journal');
  const journalSize = () => readdir(dir.path).then((names) => (names.includes('alerts.journal') ? readFileSync(journal).length : 0));
  assert.equal(await journalSize(), 0, 'the first write is whole');
  list.observe(panel(7), { at, observation: { answer: 'none', down: [], diskPercent: 40 }, version: null });
  list.forget(panel(8));
  await list.flush();
  const journaled = await journalSize();
  assert.ok(journaled > 0 && journaled < 2000, `one short journal entry, not the whole file (${journaled} bytes)`);
  const reopened = open(manualTimer());
  assert.equal(reopened.observation(panel(7))?.observation.answer, 'none');
  assert.equal(reopened.observation(panel(8)), undefined);
  assert.equal(reopened.observation(panel(9))?.observation.answer, 'proper');
  assert.deepEqual(reopened.list(), [alert(1)]);
  await reopened.compact();
  assert.equal(await journalSize(), 0, 'folded into the file at quit');
  assert.equal(open(manualTimer()).observation(panel(7))?.observation.answer, 'none');
});
