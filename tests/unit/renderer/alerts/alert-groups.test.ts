import assert from 'node:assert/strict';
import { test } from 'node:test';
import { groupAlerts, startSummaryLines, versionChangeLine } from '../../../../renderer/alerts/alert-rows.ts';
import type { Alert } from '../../../../shared/alerts.ts';

const alert = (id: string, change: Partial<Alert> = {}): Alert => ({
  id,
  at: '2030-01-01T00:00:00.000Z',
  panelId: 'p1',
  panelName: 'acme-prod-01',
  kind: 'serviceDown',
  message: 'shop/web on acme-prod-01 is down.',
  tab: 'services',
  service: 'shop/web',
  host: null,
  resolvedAt: null,
  acknowledgedAt: null,
  ...change,
});

test('the list: open first, then acknowledged, then resolved (acknowledged or not), each headed with its count, order kept within', () => {
  const items = groupAlerts([
    alert('5', { resolvedAt: '2030-01-01T01:00:00.000Z', acknowledgedAt: '2030-01-01T00:30:00.000Z' }),
    alert('4', { acknowledgedAt: '2030-01-01T00:30:00.000Z' }),
    alert('3'),
    alert('2', { resolvedAt: '2030-01-01T01:00:00.000Z' }),
    alert('1'),
  ]);
  assert.deepEqual(
    items.map((item) => (item.type === 'heading' ? `${item.standing}:${item.count}` : item.alert.id)),
    ['open:2', '3', '1', 'acknowledged:1', '4', 'resolved:2', '5', '2'],
  );
  assert.deepEqual(groupAlerts([]), [], 'no heading over an empty group');
});

test('the start summary: one line a kind, counting alerts and panels, each panel once with its tab', () => {
  const lines = startSummaryLines({
    alerts: [
      alert('1', { service: 'shop/web' }),
      alert('2', { service: 'shop/db' }),
      alert('3', { panelId: 'p2', panelName: 'acme-prod-02', service: 'blog/app' }),
      alert('4', { panelId: 'p3', panelName: 'acme-prod-03', kind: 'unreachable', tab: 'session', service: null }),
    ],
  });
  assert.deepEqual(
    lines.map((line) => [line.text, line.panels.map((panel) => `${panel.panelName}@${panel.tab}`)]),
    [
      ['3 services went down on 2 panels', ['acme-prod-01@services', 'acme-prod-02@services']],
      ['1 panel stopped answering', ['acme-prod-03@session']],
    ],
  );
});

test('the start summary\'s versions: "were upgraded" only when every panel runs a later version, numbers compared as numbers', () => {
  const change = (panelId: string, from: string, to: string) => ({ panelId, panelName: panelId, from, to });
  assert.equal(versionChangeLine({ versionChanges: [] }), null);
  assert.equal(versionChangeLine({ versionChanges: [change('a', '2.9.3', '2.10.0')] })?.text, '1 panel was upgraded');
  assert.equal(
    versionChangeLine({ versionChanges: [change('a', '2.9.3', '2.10.0'), change('b', '2.33.4', '2.34')] })?.text,
    '2 panels were upgraded',
  );
  assert.equal(
    versionChangeLine({ versionChanges: [change('a', '2.34.0', '2.33.4'), change('b', '2.33.4', '2.34.0')] })?.text,
    '2 panels changed Easypanel version',
  );
});
