import assert from 'node:assert/strict';
import { test } from 'node:test';
import { panelApiFailure } from '../../../../shared/contract/bridge.ts';
import type { ServiceSummary } from '../../../../shared/services.ts';
import { createPanelReads, forgetSignedOut, ReadStore } from '../../../../renderer/window/panel-reads.ts';
import { filterServices, pickerSuggestions, replicasText, sortServices, stateCounts } from '../../../../renderer/services/service-rows.ts';

/** The window's store of what was read of each panel, and the Services tab's rows. */

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject };
}

test('a read: loading, then the value; a second ask joins the first; a failure keeps the last value', async () => {
  const answers = [deferred<string>(), deferred<string>()];
  let calls = 0;
  const store = new ReadStore<string>(() => answers[calls++]!.promise);
  let notified = 0;
  store.subscribe(() => notified++);
  assert.deepEqual(store.state('a'), { value: null, loading: false, error: null });
  const first = store.load('a');
  assert.equal(store.load('a'), first, 'joined');
  assert.deepEqual(store.state('a'), { value: null, loading: true, error: null });
  answers[0]!.resolve('one');
  await first;
  assert.deepEqual(store.state('a'), { value: 'one', loading: false, error: null });
  const again = store.load('a');
  answers[1]!.reject(panelApiFailure('TIMEOUT', 'The panel did not answer.'));
  await again;
  assert.deepEqual(store.state('a'), { value: 'one', loading: false, error: { code: 'TIMEOUT', message: 'The panel did not answer.' } });
  assert.equal(calls, 2);
  assert.ok(notified >= 4);
  assert.equal(store.state('a'), store.state('a'), 'a stable snapshot');
});

test('forgotten while reading (a log out): the answer is dropped', async () => {
  const answer = deferred<string>();
  const store = new ReadStore<string>(() => answer.promise);
  const reading = store.load('a');
  store.forget('a');
  answer.resolve('old sign-in');
  await reading;
  assert.deepEqual(store.state('a'), { value: null, loading: false, error: null });
});

test('forgetSignedOut drops what was read of panels no longer signed in', async () => {
  const reads = createPanelReads({
    listServices: async (panelId) => ({ panelId, readAt: 'x', projects: [], services: [], truncated: false, taskStatsProblem: null }),
    getServerStats: async (panelId) => ({
      panelId,
      readAt: 'x',
      version: null,
      uptimeSeconds: null,
      cpuPercent: null,
      memory: { usedMb: null, totalMb: null },
      disk: { usedGb: null, totalGb: null },
    }),
  });
  await Promise.all([reads.services.load('a'), reads.services.load('b'), reads.stats.load('a')]);
  forgetSignedOut(reads, (id) => id === 'b');
  assert.equal(reads.services.state('a').value, null);
  assert.equal(reads.stats.state('a').value, null);
  assert.equal(reads.services.state('b').value?.panelId, 'b');
});

const service = (projectName: string, name: string, state: ServiceSummary['state'], type = 'app'): ServiceSummary => ({
  projectName,
  name,
  type,
  state,
  replicas: state === 'unknown' ? null : { actual: state === 'running' ? 1 : 0, desired: state === 'stopped' ? 0 : 1 },
});

test('rows: by project then name (numbers in order), searched by every word, counted by state', () => {
  const sorted = sortServices([
    service('shop', 'web-10', 'running'),
    service('blog', 'site', 'down', 'wordpress'),
    service('shop', 'web-2', 'stopped'),
    service('Analytics', 'db', 'unknown', 'postgres'),
  ]);
  assert.deepEqual(
    sorted.map((one) => `${one.projectName}/${one.name}`),
    ['Analytics/db', 'blog/site', 'shop/web-2', 'shop/web-10'],
  );
  assert.deepEqual(
    filterServices(sorted, '  SHOP  web ').map((one) => one.name),
    ['web-2', 'web-10'],
  );
  assert.deepEqual(
    filterServices(sorted, 'down').map((one) => one.name),
    ['site'],
  );
  assert.deepEqual(
    filterServices(sorted, 'postgres unknown').map((one) => one.name),
    ['db'],
  );
  assert.equal(filterServices(sorted, ''), sorted);
  // Counted in All services' order, what needs the operator first (was the states' own order: running first).
  assert.equal(stateCounts(sorted), '1 down, 1 unknown, 1 stopped, 1 running');
  // The search of All services: accents aside, and a state's other words ("failing" finds down).
  assert.deepEqual(
    filterServices(sorted, 'failing').map((one) => one.name),
    ['site'],
  );
  assert.deepEqual(
    filterServices(sortServices([service('Zürich', 'wëb', 'running')]), 'zurich web ok').map((one) => one.name),
    ['wëb'],
  );
  assert.equal(replicasText(sorted[0]!), '–');
  assert.equal(replicasText(sorted[1]!), '0/1');
});

test('the service picker offers the projects, then the services of the project typed (all while none is), each once, in order', () => {
  const services = [
    service('shop', 'web-10', 'running'),
    service('shop', 'web-2', 'down'),
    service('blog', 'db', 'running', 'postgres'),
    service('shop', 'web-2', 'running'),
  ];
  const list = {
    panelId: 'p',
    readAt: '2026-11-25T00:00:00.000Z',
    projects: [{ name: 'shop' }, { name: 'blog' }],
    services,
    truncated: false,
    taskStatsProblem: null,
  };
  assert.deepEqual(pickerSuggestions(null, ''), { projects: [], services: [] });
  assert.deepEqual(pickerSuggestions(list, ''), { projects: ['blog', 'shop'], services: ['db', 'web-2', 'web-10'] });
  assert.deepEqual(pickerSuggestions(list, 'shop').services, ['web-2', 'web-10']);
  assert.deepEqual(pickerSuggestions(list, 'nope').services, []);
  const many = Array.from({ length: 1000 }, (_, index) => service(`p${index}`, `s${index}`, 'running'));
  const capped = pickerSuggestions({ ...list, services: many }, '');
  assert.equal(capped.projects.length, 300);
  assert.equal(capped.services.length, 300);
});
