import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import type { Core } from '../../electron/core/index.ts';
import type { Alert } from '../../shared/alerts.ts';
import type { PanelEvent } from '../../shared/contract/events.ts';
import { tempDir } from '../support/helpers.ts';
import type { ReferencePanel } from '../support/reference-panel/server.ts';
import {
  closeAll,
  EASYPANEL_GENERATIONS,
  onlyServices,
  openSignedIn,
  coreWithEvents,
  startGenerations,
} from '../support/signed-in-core.ts';

/**
 * Alerts from real checks of reference panels of each Easypanel generation, over loopback, with
 * real files: once per change and never per check, again only after the condition cleared and came
 * back; the disk threshold from the settings; the list kept across a restart; no token in an alert.
 */

let generations: Map<string, ReferencePanel>;
before(async () => (generations = await startGenerations()));
after(() => closeAll(generations));

let dir: Awaited<ReturnType<typeof tempDir>>;
beforeEach(async () => (dir = await tempDir()));
afterEach(() => dir.cleanup());

interface Opened {
  core: Core;
  events: PanelEvent[];
  id: string;
  token: string;
  panel: ReferencePanel;
}

async function open(style: string): Promise<Opened> {
  const panel = generations.get(style)!;
  panel.setFault('getSession', null);
  panel.services.setSystemLoad({ disk: { usedGb: 10, totalGb: 100 } });
  onlyServices(panel, { projectName: 'shop', name: 'web', type: 'app' }, { projectName: 'shop', name: 'db', type: 'postgres' });
  const signedIn = await openSignedIn(dir.path, panel);
  return { ...signedIn, panel };
}

/** Checks the panel `times` times, one after the other, and returns the alerts raised meanwhile (oldest first). */
async function checks(opened: Opened, times = 1): Promise<Alert[]> {
  const before = opened.events.length;
  for (let i = 0; i < times; i++) await opened.core.checkPanels([opened.id]);
  return opened.events.slice(before).flatMap((event) => (event.type === 'alertRaised' ? [event.alert] : []));
}

const kinds = (alerts: readonly Alert[]) => alerts.map((alert) => alert.kind);

for (const style of EASYPANEL_GENERATIONS) {
  describe(`alerts from a ${style} panel`, () => {
    test('a crashed service raises exactly one alert across three checks; recovered and crashed again, a second', async () => {
      const opened = await open(style);
      assert.deepEqual(await checks(opened), [], 'the first check is the baseline');
      opened.panel.services.crashService('shop', 'web');
      const raised = await checks(opened, 3);
      assert.deepEqual(kinds(raised), ['serviceDown']);
      assert.equal(raised[0]!.tab, 'services');
      assert.equal(raised[0]!.panelId, opened.id);
      assert.match(raised[0]!.message, /shop\/web/);
      opened.panel.services.recoverService('shop', 'web');
      assert.deepEqual(await checks(opened), []);
      opened.panel.services.crashService('shop', 'web');
      assert.deepEqual(kinds(await checks(opened, 2)), ['serviceDown']);
      const listed = await opened.core.listAlerts();
      assert.equal(listed.length, 2);
      assert.ok(Date.parse(listed[0]!.at) >= Date.parse(listed[1]!.at), 'newest first');
      assert.ok(!JSON.stringify(listed).includes(opened.token), 'no token in an alert');
    });
  });
}

describe('alerts (one generation)', () => {
  const style = 'public';

  test('a disk past the threshold raises one alert; the threshold is the setting', async () => {
    const opened = await open(style);
    await checks(opened);
    opened.panel.services.setSystemLoad({ disk: { usedGb: 95, totalGb: 100 } });
    const raised = await checks(opened, 3);
    assert.deepEqual(kinds(raised), ['diskFull']);
    assert.equal(raised[0]!.tab, 'overview');
    assert.match(raised[0]!.message, /95% full/);
    // Back under, then a threshold of 97: 96% stays quiet, 98% alerts.
    opened.panel.services.setSystemLoad({ disk: { usedGb: 50, totalGb: 100 } });
    await checks(opened);
    await opened.core.updateSettings({ diskAlertPercent: 97 });
    opened.panel.services.setSystemLoad({ disk: { usedGb: 96, totalGb: 100 } });
    assert.deepEqual(await checks(opened, 2), []);
    opened.panel.services.setSystemLoad({ disk: { usedGb: 98, totalGb: 100 } });
    assert.deepEqual(kinds(await checks(opened, 2)), ['diskFull']);
    await assert.rejects(opened.core.updateSettings({ diskAlertPercent: 100 }), /Disk alert threshold must be at most 99/);
  });

  test('a panel that stops answering raises one alert, again only after it answered in between; none holds the token', async () => {
    const opened = await open(style);
    await checks(opened);
    opened.panel.setFault('getSession', { kind: 'server-error' });
    const raised = await checks(opened, 3);
    assert.deepEqual(kinds(raised), ['unreachable']);
    assert.equal(raised[0]!.tab, 'session');
    assert.match(raised[0]!.message, /server error/);
    opened.panel.setFault('getSession', null);
    assert.deepEqual(await checks(opened), []);
    opened.panel.setFault('getSession', { kind: 'server-error' });
    assert.deepEqual(kinds(await checks(opened)), ['unreachable']);
    opened.panel.setFault('getSession', null);
    assert.ok(!JSON.stringify(await opened.core.listAlerts()).includes(opened.token));
  });

  test('the list is kept across a restart', async () => {
    const opened = await open(style);
    await checks(opened);
    opened.panel.services.crashService('shop', 'db');
    await checks(opened);
    await opened.core.flush();
    const kept = await opened.core.listAlerts();
    assert.deepEqual(kinds(kept), ['serviceDown']);
    const { core } = coreWithEvents(dir.path);
    assert.deepEqual(await core.listAlerts(), kept);
  });
});
