import assert from 'node:assert/strict';
import { isDeepStrictEqual } from 'node:util';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import type { Core } from '../../electron/core/index.ts';
import type { PanelEvent } from '../../shared/contract/events.ts';
import { keeping, readAllFiles, rejectsWith, tempDir, waitUntil } from '../support/helpers.ts';
import { DEMO_USER, type ReferencePanel } from '../support/reference-panel/server.ts';
import { secretFormsIn } from '../support/secret-forms.ts';
import { closeAll, EASYPANEL_GENERATIONS, onlyServices, coreWithEvents, startGenerations } from '../support/signed-in-core.ts';

/**
 * A panel that turns the token away ends its sign-in whatever the call was: a read (as before), a
 * write (runServiceAction) and the log socket's handshake (readServiceLogs, followServiceLogs) all
 * go the same way (the session reader's `failedWithToken`): the panel is signed out with the
 * panel's refusal as its reason, the window hears it, a follow ends, and the activity entry of a
 * refused write says it was refused, not that its outcome is unknown.
 */

const credentials = { email: DEMO_USER.email, password: DEMO_USER.password };
const GENERATIONS = EASYPANEL_GENERATIONS;
const web = { projectName: 'shop', serviceName: 'web' };

describe('a token refused by a write or the log socket ends the sign-in as a read’s 401 does', () => {
  let panels = new Map<string, ReferencePanel>();
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let core: Core;
  let events: PanelEvent[];
  /** Every token issued in the test, and every answer and error it got: searched for them afterwards. */
  let tokens: string[];
  let seen: unknown[];

  before(async () => {
    panels = await startGenerations();
  });
  after(() => closeAll(panels));
  beforeEach(async () => {
    dir = await tempDir();
    tokens = [];
    seen = [];
    ({ core, events } = coreWithEvents(dir.path));
    for (const panel of panels.values()) {
      panel.setFault('stopAppService', null);
      panel.logs.setFault(null);
      onlyServices(panel, { projectName: 'shop', name: 'web', type: 'app' });
    }
  });
  afterEach(async () => {
    core.stopAllLogFollows();
    await core.flush();
    const files = await readAllFiles(dir.path);
    const places = {
      'answers and errors': JSON.stringify(seen),
      events: JSON.stringify(events),
      activity: JSON.stringify(await core.listActivity()),
      ...Object.fromEntries(files.map((file) => [file.path, file.content])),
    };
    const leaks = tokens.flatMap((token) =>
      Object.entries(places).flatMap(([place, text]) => secretFormsIn(text, token).map((form) => `${place}: ${form}`)),
    );
    assert.deepEqual(leaks, []);
    await dir.cleanup();
  });

  async function signedIn(panel: ReferencePanel, id?: string): Promise<string> {
    const panelId = id ?? (await core.addPanel({ address: panel.url, name: `Shop ${panel.style}` })).id;
    seen.push(await core.logIn(panelId, credentials));
    tokens.push(panel.issuedTokens().at(-1) ?? '');
    return panelId;
  }

  const capture = <T>(work: Promise<T>): Promise<T> => keeping(seen, work);

  /** The panel is signed out because the panel refused its token, and the window heard so. */
  async function signedOutByRefusal(id: string): Promise<void> {
    const panel = (await core.listPanels()).find((one) => one.id === id);
    assert.equal(panel?.signedIn, false);
    assert.equal(panel?.signedOutReason?.code, 'UNAUTHORIZED');
    assert.match(panel?.signedOutReason?.message ?? '', /(rejected|refused) the saved token/);
    const heard = () =>
      events.some(
        (event) =>
          event.type === 'panelsChanged' &&
          event.panels.some((one) => one.id === id && !one.signedIn && isDeepStrictEqual(one.signedOutReason, panel?.signedOutReason)),
      );
    await waitUntil(heard);
    // Nothing more is sent with the token: the next call is NOT_SIGNED_IN, saying why.
    await rejectsWith(capture(core.listServices(id)), 'NOT_SIGNED_IN', /rejected|refused/);
  }

  for (const style of GENERATIONS) {
    test(`${style}: a 401 to a stop ends the sign-in; the entry says refused, the window hears failed and signed out`, async () => {
      const panel = panels.get(style)!;
      const id = await signedIn(panel);
      panel.setFault('stopAppService', { kind: 'status', status: 401 });
      await rejectsWith(capture(core.runServiceAction(id, { ...web, action: 'stop' })), 'UNAUTHORIZED', /rejected the saved token/);
      const writes = panel.requests.filter((request) => /stop(App)?Service|app[./]stopService/.test(request.path));
      assert.equal(writes.length, 1, 'sent once, never again');
      const [entry] = (await core.listActivity({ panelId: id })).entries;
      assert.equal(entry?.outcome, 'failed');
      assert.match(entry?.message ?? '', /^Refused, not done: The panel rejected the saved token \(HTTP 401/);
      const phases = events.flatMap((event) => (event.type === 'serviceActionChanged' ? [event.phase] : []));
      assert.deepEqual(phases, ['sent', 'failed']);
      await signedOutByRefusal(id);
    });
  }

  test('a 403 to a deploy ends the sign-in too, with the same kind of reason as a read’s 401', async () => {
    const panel = panels.get('public')!;
    const id = await signedIn(panel);
    panel.setFault('deployAppService', { kind: 'status', status: 403, body: { code: 'FORBIDDEN', message: 'No' } });
    try {
      await rejectsWith(capture(core.runServiceAction(id, { ...web, action: 'deploy' })), 'UNAUTHORIZED', /HTTP 403/);
    } finally {
      panel.setFault('deployAppService', null);
    }
    assert.equal((await core.listActivity({ panelId: id })).entries[0]?.outcome, 'failed');
    await signedOutByRefusal(id);
    const writeReason = (await core.listPanels()).find((one) => one.id === id)?.signedOutReason;

    // A read's 401, for comparison: the same path, the same kind of reason.
    await signedIn(panel, id);
    panel.expireAllTokens();
    await rejectsWith(capture(core.listServices(id)), 'UNAUTHORIZED');
    await signedOutByRefusal(id);
    const readReason = (await core.listPanels()).find((one) => one.id === id)?.signedOutReason;
    assert.equal(readReason?.code, writeReason?.code);
  });

  test('the log socket refusing the token (401) for a read ends the sign-in', async () => {
    const panel = panels.get('rpc')!;
    const id = await signedIn(panel);
    panel.logs.setFault({ kind: 'refuse', status: 401 });
    await rejectsWith(capture(core.readServiceLogs(id, web)), 'UNAUTHORIZED', /refused the saved token for its log \(HTTP 401\)/);
    await signedOutByRefusal(id);
  });

  test('the log socket refusing a follow (403): the follow ends, the panel’s other follows too, the window hears all', async () => {
    const panel = panels.get('public')!;
    const id = await signedIn(panel);
    const running = await capture(core.followServiceLogs(id, web));
    await waitUntil(() => panel.logs.openSockets() === 1);
    panel.logs.setFault({ kind: 'refuse', status: 403 });
    const refused = await capture(core.followServiceLogs(id, web));
    const ended = (followId: string) =>
      events.find((event) => event.type === 'serviceLogEnded' && event.followId === followId) as
        | Extract<PanelEvent, { type: 'serviceLogEnded' }>
        | undefined;
    await waitUntil(() => ended(refused.followId) !== undefined && ended(running.followId) !== undefined);
    assert.equal(ended(refused.followId)?.error?.code, 'UNAUTHORIZED');
    assert.match(ended(refused.followId)?.error?.message ?? '', /HTTP 403/);
    assert.equal(ended(running.followId)?.error?.code, 'NOT_SIGNED_IN');
    await waitUntil(() => panel.logs.openSockets() === 0);
    await signedOutByRefusal(id);
  });

  test('a read’s 401 ends a running follow within a batch', async () => {
    const panel = panels.get('trpc')!;
    const id = await signedIn(panel);
    const follow = await capture(core.followServiceLogs(id, web));
    await waitUntil(() => panel.logs.openSockets() === 1);
    panel.expireAllTokens();
    await rejectsWith(capture(core.getServerStats(id)), 'UNAUTHORIZED');
    await waitUntil(() => events.some((event) => event.type === 'serviceLogEnded' && event.followId === follow.followId));
    await waitUntil(() => panel.logs.openSockets() === 0);
    await signedOutByRefusal(id);
  });
});
