import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FleetServiceSummary, PanelServices } from '../../../../shared/fleet-services.ts';
import type { Panel } from '../../../../shared/types.ts';
import type { ErrorCode } from '../../../../shared/contract/errors.ts';
import { warmFleetRows } from '../../../../renderer/services/all-services-warmup.ts';
import type { PanelStore } from '../../../../renderer/window/panel-store.ts';
import { applyStatus, createWindowStores } from '../../../../renderer/window/window-stores.ts';
import { DEFAULT_SETTINGS } from '../../../../shared/settings.ts';
import {
  FLEET_ROWS,
  type FleetRowCache,
  filterFleetServices,
  fleetServiceRows,
  groupFleetServices,
  readPanels,
  readProblems,
  unreadPanels,
} from '../../../../renderer/services/all-services-rows.ts';
import { countStates, stateCounts } from '../../../../renderer/services/service-rows.ts';
import { FleetServicesStore } from '../../../../renderer/window/health-store.ts';
import { routePanelEvent, type EventTargets } from '../../../../renderer/window/event-router.ts';
import { samplePanel } from '../../../support/panel-fixture.ts';

/** The fleet's Services view: rows across panels, search and state filter, grouping by panel, project and state. */

const signedIn = (n: number, name: string, change: Partial<Panel> = {}) => samplePanel(n, { name, signedIn: true, ...change });
const service = (projectName: string, name: string, state: FleetServiceSummary['state'], type = 'app'): FleetServiceSummary => ({
  projectName,
  name,
  type,
  state,
  replicas: null,
  cpuPercent: null,
  memoryMb: null,
});
const read = (panel: Panel, services: FleetServiceSummary[], problem: string | null = null): PanelServices => ({
  panelId: panel.id,
  readAt: '2030-01-01T00:00:00.000Z',
  services,
  truncated: false,
  problem: problem === null ? null : { at: '2030-01-01T00:00:00.000Z', code: 'TIMEOUT', message: problem },
});

const web10 = signedIn(1, 'Web 10', { colour: 'red' });
const web9 = signedIn(2, 'Web 9');
const out = samplePanel(3, { name: 'Signed out' });
const broken = signedIn(4, 'Broken');
const services = new Map<string, PanelServices>([
  [web10.id, read(web10, [service('shop', 'web', 'running'), service('blog', 'db', 'down', 'postgres')])],
  [web9.id, read(web9, [service('shop', 'worker', 'stopped'), service('shop', 'web', 'down')])],
  [out.id, read(out, [service('old', 'gone', 'running')])],
  [broken.id, read(broken, [], 'The panel did not answer within 15 seconds.')],
]);

test('rows: signed-in panels by name (numbers as numbers), project then service within; a signed-out panel has none', () => {
  const panels = readPanels([web10, out, broken, web9], services);
  assert.deepEqual(
    panels.map(({ panel }) => panel.name),
    ['Broken', 'Web 9', 'Web 10'],
  );
  const rows = fleetServiceRows(panels);
  assert.deepEqual(
    rows.map((row) => `${row.panelName}:${row.projectName}/${row.name}`),
    ['Web 9:shop/web', 'Web 9:shop/worker', 'Web 10:blog/db', 'Web 10:shop/web'],
  );
  assert.equal(rows[2]!.key, `${web10.id}/blog/db`);
  assert.equal(rows[2]!.panelColour, 'red');
  // Kept by identity: the same read gives the same row objects (a keystroke builds nothing).
  const cache: FleetRowCache = new WeakMap();
  const first = fleetServiceRows(panels, cache);
  assert.equal(fleetServiceRows(panels, cache)[0], first[0]);
  assert.deepEqual(
    countStates(rows).map(({ state, count }) => `${count} ${state}`),
    ['2 down', '1 stopped', '1 running'],
  );
  assert.deepEqual(
    readProblems(panels).map(({ panel }) => panel.name),
    ['Broken'],
  );
  // A panel whose last check failed (unreachable) shows the services read before, and says why they may be old.
  const unreachable = {
    ...web9,
    lastCheck: {
      at: '2030-01-01T00:05:00.000Z',
      ok: false as const,
      error: { code: 'NETWORK' as const, message: 'It could not be reached.' },
    },
  };
  assert.deepEqual(
    readProblems(readPanels([unreachable, broken], services)).map(({ message }) => message),
    ['The panel did not answer within 15 seconds.', 'It could not be reached.'],
  );
});

test('search: every word in panel, project, service, type or the state words; the state filter; order kept', () => {
  const rows = fleetServiceRows(readPanels([web10, web9], services));
  const names = (shown: readonly { panelName: string; name: string }[]) => shown.map((row) => `${row.panelName}:${row.name}`);
  assert.deepEqual(names(filterFleetServices(rows, 'web 10', 'all')), ['Web 10:db', 'Web 10:web']);
  assert.deepEqual(names(filterFleetServices(rows, 'WEB down', 'all')), ['Web 9:web', 'Web 10:db']);
  assert.deepEqual(names(filterFleetServices(rows, 'postgres', 'all')), ['Web 10:db']);
  assert.deepEqual(names(filterFleetServices(rows, 'crashed', 'all')), ['Web 9:web', 'Web 10:db']);
  assert.deepEqual(names(filterFleetServices(rows, '', 'stopped')), ['Web 9:worker']);
  assert.deepEqual(names(filterFleetServices(rows, 'shop', 'not-running')), ['Web 9:web', 'Web 9:worker']);
  assert.equal(filterFleetServices(rows, '  ', 'all'), rows);
});

test('grouping: by panel (a failed read says why on its heading), by project name, by state attention first', () => {
  const panels = readPanels([web10, web9, broken], services);
  const rows = fleetServiceRows(panels);
  const outline = (items: ReturnType<typeof groupFleetServices>) =>
    items.map((item) =>
      item.kind === 'group' ? `# ${item.name} (${stateCounts(item.rows)})${item.problem ? ` ! ${item.problem}` : ''}` : item.row.name,
    );
  assert.deepEqual(outline(groupFleetServices(rows, 'panel', panels, false)), [
    '# Broken () ! The panel did not answer within 15 seconds.',
    '# Web 9 (1 down, 1 stopped)',
    'web',
    'worker',
    '# Web 10 (1 down, 1 running)',
    'db',
    'web',
  ]);
  // Searching leaves out a panel with no row, even one whose read failed.
  assert.deepEqual(outline(groupFleetServices(filterFleetServices(rows, 'worker', 'all'), 'panel', panels, true)), [
    '# Web 9 (1 stopped)',
    'worker',
  ]);
  assert.deepEqual(outline(groupFleetServices(rows, 'project', panels, false)), [
    '# blog (1 down)',
    'db',
    '# shop (1 down, 1 stopped, 1 running)',
    'web',
    'worker',
    'web',
  ]);
  assert.deepEqual(outline(groupFleetServices(rows, 'state', panels, false)), [
    '# Down (2 down)',
    'web',
    'db',
    '# Stopped (1 stopped)',
    'worker',
    '# Running (1 running)',
    'web',
  ]);
});

test('group (a client): searched, and a grouping of its own, groups by name and the panels with none last', () => {
  const acme = signedIn(11, 'Shop A', { group: 'Acme' });
  const globex = signedIn(12, 'Shop G', { group: 'Globex' });
  const acme2 = signedIn(13, 'Blog A', { group: 'Acme' });
  const none = signedIn(14, 'Loose');
  const byGroup = new Map<string, PanelServices>([
    [acme.id, read(acme, [service('shop', 'web', 'running')])],
    [globex.id, read(globex, [service('shop', 'web', 'down')])],
    [acme2.id, read(acme2, [service('blog', 'wp', 'stopped')])],
    [none.id, read(none, [service('misc', 'cron', 'running')])],
  ]);
  const panels = readPanels([acme, globex, acme2, none], byGroup);
  const rows = fleetServiceRows(panels);
  assert.deepEqual(
    filterFleetServices(rows, 'acme', 'all').map((row) => `${row.panelName}:${row.name}`),
    ['Blog A:wp', 'Shop A:web'],
  );
  assert.equal(rows.find((row) => row.panelId === globex.id)!.panelGroup, 'Globex');
  const outline = groupFleetServices(rows, 'group', panels, false).map((item) =>
    item.kind === 'group' ? `# ${item.name}` : `${item.row.panelName}:${item.row.name}`,
  );
  assert.deepEqual(outline, ['# Acme', 'Blog A:wp', 'Shop A:web', '# Globex', 'Shop G:web', '# No group', 'Loose:cron']);
});

test('the store: getFleetServices at start, fleetServicesChanged after; a panel gone leaves; an older whole never undoes a newer batch', () => {
  const store = new FleetServicesStore();
  const targets = { fleetServicesStore: store } as unknown as EventTargets;
  const newer = { ...read(web9, [service('shop', 'web', 'running')]), readAt: '2030-01-01T00:10:00.000Z' };
  routePanelEvent({ type: 'fleetServicesChanged', panels: [newer], gone: [] }, targets);
  store.load([...services.values()]);
  assert.equal(store.getSnapshot().get(web9.id), newer);
  assert.equal(store.getSnapshot().size, 4);
  routePanelEvent({ type: 'fleetServicesChanged', panels: [], gone: [out.id] }, targets);
  assert.equal(store.getSnapshot().has(out.id), false);
  const before = store.getSnapshot();
  store.apply([], ['not-known']);
  assert.equal(store.getSnapshot(), before, 'nothing changed, no new snapshot');
});

test('the rows are made ahead, a slice per task, once the services arrive: opening the view finds them in the cache', async () => {
  const store = new FleetServicesStore();
  const byId = new Map([web10, web9].map((panel) => [panel.id, panel]));
  const panelStore = {
    subscribe: () => () => undefined,
    getSnapshot: () => ({ byId }) as unknown as ReturnType<PanelStore['getSnapshot']>,
  };
  const stop = warmFleetRows(panelStore, store);
  const read = services.get(web9.id)!;
  store.load([read]);
  assert.equal(FLEET_ROWS.has(read), false, 'nothing is made in the store change itself');
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.equal(FLEET_ROWS.get(read)?.rows.length, 2);
  // The view takes the same rows.
  assert.equal(fleetServiceRows(readPanels([web9], services), FLEET_ROWS)[0], FLEET_ROWS.get(read)?.rows[0]);
  stop();
});

test('the view is one of the window views; its grouping comes back with the panel list settings saved', () => {
  const stores = createWindowStores();
  const { locationStore, panelListChoicesStore } = stores;
  locationStore.show('alerts');
  locationStore.show('allServices');
  assert.equal(locationStore.getSnapshot().view === 'alerts', false);
  assert.equal(locationStore.getSnapshot().view, 'allServices');
  locationStore.selectOne(web9.id);
  assert.equal(locationStore.getSnapshot().view === 'allServices', false, 'choosing a panel shows it again');
  const settings = { ...DEFAULT_SETTINGS, panelList: { ...DEFAULT_SETTINGS.panelList, servicesGroupBy: 'state' as const } };
  applyStatus(stores, { settings, tokenProtection: { level: 'keyring', backend: 'gnome_libsecret' }, startupProblems: [] });
  assert.equal(panelListChoicesStore.getSnapshot().panelListChoices.servicesGroupBy, 'state');
  panelListChoicesStore.change({ servicesGroupBy: 'project' });
  assert.equal(panelListChoicesStore.getSnapshot().panelListChoices.servicesGroupBy, 'project');
});

test('the panels not read yet that a read would help: never read or checked fine, not one whose last check found it unreachable', () => {
  const failed = (code: ErrorCode) => ({ ok: false as const, at: '2030-01-01T00:00:00.000Z', error: { code, message: 'no answer' } });
  const fresh = signedIn(11, 'Fresh');
  const gone = signedIn(12, 'Gone', { lastCheck: failed('NETWORK') });
  const slow = signedIn(13, 'Slow', { lastCheck: failed('TIMEOUT') });
  const odd = signedIn(14, 'Odd', { lastCheck: failed('BAD_RESPONSE') });
  const unread = unreadPanels([web10, fresh, gone, out, slow, odd], services);
  assert.deepEqual(
    unread.toRead.map((panel) => panel.name),
    ['Fresh', 'Odd'],
  );
  assert.deepEqual(
    unread.unreachable.map((panel) => panel.name),
    ['Gone', 'Slow'],
  );
});
