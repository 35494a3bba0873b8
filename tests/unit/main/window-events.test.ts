import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EVENT_CHANNEL, type PanelEvent } from '../../../shared/contract/events.ts';
import type { ErrorInfo } from '../../../shared/contract/errors.ts';
import type { Panel } from '../../../shared/types.ts';
import { plainEvent, WindowEvents, type EventWindow } from '../../../electron/main/window-events.ts';
import { APP_ORIGIN } from '../../../electron/main/renderer-files.ts';

/** A BrowserWindow stand-in that records what was sent to its page. */
function fakeWindow(url = `${APP_ORIGIN}/index.html`) {
  const sent: { channel: string; args: unknown[] }[] = [];
  const state = { destroyed: false, contentsDestroyed: false, url, throwOnSend: false };
  const window: EventWindow = {
    isDestroyed: () => state.destroyed,
    webContents: {
      isDestroyed: () => state.contentsDestroyed,
      getURL: () => state.url,
      send: (channel, ...args) => {
        if (state.throwOnSend) throw new Error('An object could not be cloned.');
        sent.push({ channel, args });
      },
    },
  };
  return { window, sent, state };
}

const panel: Panel = {
  id: '00000000-0000-4000-8000-000000000001',
  name: 'Production',
  address: 'panel.example.com',
  baseUrl: 'https://panel.example.com/api',
  allowPlainHttp: false,
  generation: 'public',
  loginPath: '/login',
  sessionPath: '/getSession',
  trustedCertificate: null,
  tokenField: null,
  createdAt: '2030-01-01T00:00:00.000Z',
  lastEmail: 'ops@example.com',
  signedIn: true,
  tokenStorage: 'keyring',
  tokenKind: 'session',
  keepSignedIn: true,
  signedOutReason: null,
  lastCheck: { at: '2030-01-01T00:05:00.000Z', ok: false, error: { code: 'TIMEOUT', message: 'slow' } },
  sessionExpiresAt: '2030-01-01T01:00:00.000Z',
  panelVersion: '2.32.2',
  updateAvailable: true,
  group: 'Acme',
  tags: ['eu', 'billing'],
  colour: 'red',
  favourite: true,
  muted: false,
  readOnly: false,
  notes: '',
  fleetFile: null,
  fleetFileName: null,
  accounts: [],
  writeAccount: null,
};

const changed: PanelEvent = { type: 'panelsChanged', panels: [panel] };

test('events reach the attached window only, on the event channel, as the event', () => {
  const events = new WindowEvents({ appOrigins: [APP_ORIGIN] });
  const own = fakeWindow();
  const other = fakeWindow();
  assert.equal(events.send(changed), false, 'no window yet');
  events.attach(own.window);
  assert.equal(events.send(changed), true);
  assert.equal(events.send({ type: 'focusPanel', panelId: panel.id }), true);
  assert.deepEqual(own.sent, [
    { channel: EVENT_CHANNEL, args: [changed] },
    { channel: EVENT_CHANNEL, args: [{ type: 'focusPanel', panelId: panel.id }] },
  ]);
  assert.deepEqual(other.sent, []);
});

test('a destroyed window, destroyed contents or a page on another origin get nothing', () => {
  const events = new WindowEvents({ appOrigins: [APP_ORIGIN] });
  const own = fakeWindow();
  events.attach(own.window);
  own.state.contentsDestroyed = true;
  assert.equal(events.send(changed), false);
  own.state.contentsDestroyed = false;
  own.state.destroyed = true;
  assert.equal(events.send(changed), false);
  own.state.destroyed = false;
  for (const url of ['https://evil.example/', 'app://other/index.html', 'about:blank', '', 'not a url']) {
    own.state.url = url;
    assert.equal(events.send(changed), false, url);
  }
  assert.deepEqual(own.sent, []);
  own.state.url = `${APP_ORIGIN}/index.html#x`;
  assert.equal(events.send(changed), true);
  assert.equal(own.sent.length, 1);
});

test('detaching stops the events; an old window detaching does not take the new one with it', () => {
  const events = new WindowEvents({ appOrigins: [APP_ORIGIN] });
  const first = fakeWindow();
  const detachFirst = events.attach(first.window);
  detachFirst();
  assert.equal(events.send(changed), false);
  assert.deepEqual(first.sent, []);

  const again = fakeWindow();
  const second = fakeWindow();
  const detachAgain = events.attach(again.window);
  events.attach(second.window);
  detachAgain();
  assert.equal(events.send(changed), true);
  assert.equal(second.sent.length, 1);
  assert.deepEqual(again.sent, [], 'a replaced window hears nothing more');
});

test('a send that throws is reported, not thrown', () => {
  const errors: unknown[] = [];
  const events = new WindowEvents({ appOrigins: [APP_ORIGIN], onError: (error) => errors.push(error) });
  const own = fakeWindow();
  own.state.throwOnSend = true;
  events.attach(own.window);
  assert.equal(events.send(changed), false);
  assert.equal(errors.length, 1);
});

test('payloads are plain data: what structured clone gives back, with no field beyond the declared ones', () => {
  const extra = { ...panel, secretToken: 'tok', signedOutReason: { code: 'UNAUTHORIZED' as const, message: 'm', cause: new Error('x') } };
  const events: PanelEvent[] = [
    { type: 'panelsChanged', panels: [extra, { ...panel, lastCheck: { at: panel.createdAt, ok: true }, signedOutReason: null }] },
    { type: 'panelsRemoved', panelIds: [panel.id] },
    { type: 'checkProgress', done: 3, total: 9 },
    { type: 'sessionExpiring', panelId: panel.id, expiresAt: '2030-01-01T01:00:00.000Z' },
    { type: 'focusPanel', panelId: panel.id },
    { type: 'updateReady', version: '1.2.0' },
    { type: 'serviceLogLines', followId: panel.id, lines: ['GET / 200', 'started'] },
    { type: 'serviceLogEnded', followId: panel.id, error: { code: 'UNAUTHORIZED', message: 'm', cause: new Error('x') } as ErrorInfo },
  ];
  for (const event of events) {
    const plain = plainEvent(event);
    assert.deepEqual(structuredClone(plain), plain, event.type);
    assert.equal(JSON.stringify(plain).includes('tok"'), false);
    assert.equal(JSON.stringify(plain).includes('cause'), false);
  }
  const [first] = (plainEvent(events[0]!) as Extract<PanelEvent, { type: 'panelsChanged' }>).panels;
  assert.deepEqual(Object.keys(first!).toSorted(), Object.keys(panel).toSorted());
  assert.deepEqual(first!.signedOutReason, { code: 'UNAUTHORIZED', message: 'm' });
  // A copy: later changes to the core's objects do not reach what was sent.
  const removed: PanelEvent = { type: 'panelsRemoved', panelIds: ['a'] };
  const copy = plainEvent(removed) as Extract<PanelEvent, { type: 'panelsRemoved' }>;
  (removed as { panelIds: string[] }).panelIds.push('b');
  assert.deepEqual(copy.panelIds, ['a']);
});

test('fleetServicesChanged crosses as its declared fields only: a field the core added to a service or a problem is not sent', () => {
  const service = { projectName: 'shop', name: 'web', type: 'app', state: 'down' as const, replicas: { actual: 0, desired: 1 } };
  const event = {
    type: 'fleetServicesChanged' as const,
    panels: [
      {
        panelId: panel.id,
        readAt: '2030-01-01T00:05:00.000Z',
        services: [{ ...service, cpuPercent: null, memoryMb: 12.5, raw: { token: 'tok' } }],
        truncated: false,
        problem: { at: '2030-01-01T00:05:00.000Z', code: 'TIMEOUT' as const, message: 'slow', cause: new Error('x') },
      },
    ],
    gone: ['00000000-0000-4000-8000-000000000002'],
  };
  const plain = plainEvent(event) as Extract<PanelEvent, { type: 'fleetServicesChanged' }>;
  assert.deepEqual(structuredClone(plain), plain);
  assert.deepEqual(plain.panels[0]?.services, [{ ...service, cpuPercent: null, memoryMb: 12.5 }]);
  assert.deepEqual(plain.panels[0]?.problem, { at: '2030-01-01T00:05:00.000Z', code: 'TIMEOUT', message: 'slow' });
  assert.deepEqual(plain.gone, event.gone);
  assert.notEqual(plain.gone, event.gone, 'a copy');
});

test('serviceActionsEnded crosses as each result’s declared fields only', () => {
  const result = { panelId: panel.id, projectName: 'shop', serviceName: 'web', action: 'restart', outcome: 'done', message: null } as const;
  // A field the core might add to a result is not sent unseen.
  const results = [{ ...result, token: 'tok', cause: new Error('x') }];
  const event: PanelEvent = { type: 'serviceActionsEnded', results };
  const plain = plainEvent(event);
  assert.deepEqual(structuredClone(plain), plain);
  assert.deepEqual(plain, { type: 'serviceActionsEnded', results: [result] });
});
