import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import { PanelError } from '../../shared/contract/errors.ts';
import type { PanelEvent } from '../../shared/contract/events.ts';
import type { Core } from '../../electron/core/index.ts';
import { activityLineOutcomes, readAllFiles, tempDir, waitUntil, writesOnly } from '../support/helpers.ts';
import { DEMO_USER, type PanelStyle, type ReferencePanel } from '../support/reference-panel/server.ts';
import { secretFormsIn } from '../support/secret-forms.ts';
import { closeAll, EASYPANEL_GENERATIONS, onlyServices, coreWithEvents, startGenerations } from '../support/signed-in-core.ts';

/**
 * `runServiceAction` over real HTTP against the reference panel in each generation: the type's own
 * write (a database's stop is its disable), recorded in the activity log before and after, events
 * to the window, never sent twice (a lost answer is `unknown`, and the panel saw one request), a
 * failure in the panel's words, and the token in no answer, event, error or file.
 */

const credentials = { email: DEMO_USER.email, password: DEMO_USER.password };
const GENERATIONS = EASYPANEL_GENERATIONS;
/** The path each generation's write of `name` (`stopService` of an app) goes to. */
const WRITE_PATHS: Record<Exclude<PanelStyle, 'simple'>, (type: string, verb: string) => string> = {
  trpc: (type, verb) => `/api/trpc/services.${type}.${verb}Service`,
  rpc: (type, verb) => `/api/rpc/services/${type}/${verb}Service`,
  public: (type, verb) => `/api/${verb}${type === 'app' ? 'App' : 'Postgres'}Service`,
};

describe('service actions', () => {
  let panels = new Map<string, ReferencePanel>();
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let core: Core;
  let events: PanelEvent[];

  before(async () => {
    panels = await startGenerations();
  });
  after(() => closeAll(panels));
  beforeEach(async () => {
    dir = await tempDir();
    ({ core, events } = coreWithEvents(dir.path));
    for (const panel of panels.values()) {
      panel.serviceActions.setDeployTime(100);
      onlyServices(panel, { projectName: 'shop', name: 'web', type: 'app' }, { projectName: 'shop', name: 'db', type: 'postgres' });
    }
  });
  afterEach(() => dir.cleanup());

  async function signedIn(panel: ReferencePanel): Promise<{ id: string; token: string }> {
    const { id } = await core.addPanel({ address: panel.url, name: `Shop ${panel.style}` });
    await core.logIn(id, credentials);
    return { id, token: panel.issuedTokens().at(-1) ?? '' };
  }

  const writesTo = (panel: ReferencePanel, path: string) => panel.requests.filter((request) => request.path === path).length;
  const actionEvents = () =>
    events.flatMap((event) => (event.type === 'serviceActionChanged' ? [`${event.action} ${event.serviceName} ${event.phase}`] : []));

  for (const style of GENERATIONS) {
    test(`${style}: stop and deploy an app, stop a database (its disable): one request each, recorded before and after`, async () => {
      const panel = panels.get(style)!;
      const { id } = await signedIn(panel);
      const stopped = await core.runServiceAction(id, { projectName: 'shop', serviceName: 'web', action: 'stop' });
      assert.deepEqual([stopped.outcome, stopped.message], ['done', null]);
      assert.deepEqual(panel.services.service('shop', 'web')?.replicas, { actual: 0, desired: 0 });
      assert.equal(writesTo(panel, WRITE_PATHS[style]('app', 'stop')), 1);

      const deployed = await core.runServiceAction(id, { projectName: 'shop', serviceName: 'web', action: 'deploy' });
      assert.equal(deployed.outcome, 'done');
      assert.deepEqual(panel.services.service('shop', 'web')?.replicas, { actual: 1, desired: 1 });
      assert.equal(panel.serviceActions.actions()[0]?.type, 'build');

      await core.runServiceAction(id, { projectName: 'shop', serviceName: 'db', action: 'stop' });
      assert.equal(panel.services.service('shop', 'db')?.enabled, false);
      assert.equal(writesTo(panel, WRITE_PATHS[style]('postgres', 'disable')), 1);

      assert.deepEqual(actionEvents(), [
        'stop web sent',
        'stop web done',
        'deploy web sent',
        'deploy web done',
        'stop db sent',
        'stop db done',
      ]);
      const entries = writesOnly((await core.listActivity({ panelId: id })).entries);
      assert.deepEqual(
        entries.map((entry) => `${entry.what.action} ${entry.what.serviceName} ${entry.outcome}`),
        ['stop db ok', 'deploy web ok', 'stop web ok'],
      );
      // The log in that set the test up, then each write: pending before it is sent, then its outcome.
      assert.deepEqual(await activityLineOutcomes(dir.path), ['pending', 'ok', 'pending', 'ok', 'pending', 'ok', 'pending', 'ok']);
    });
  }

  test('a MongoDB stops and starts by its real names in each generation (2.33: disableMongoDBService, enableMongoDBService)', async () => {
    const paths = {
      trpc: (verb: string) => `/api/trpc/services.mongo.${verb}Service`,
      rpc: (verb: string) => `/api/rpc/services/mongo/${verb}Service`,
      public: (verb: string) => `/api/${verb}MongoDBService`,
    };
    for (const style of GENERATIONS) {
      const panel = panels.get(style)!;
      panel.services.addService({ projectName: 'shop', name: 'mongo', type: 'mongo', replicas: { actual: 1, desired: 1 } });
      const { id } = await signedIn(panel);
      const stopped = await core.runServiceAction(id, { projectName: 'shop', serviceName: 'mongo', action: 'stop' });
      assert.equal(stopped.outcome, 'done', `${style}: ${stopped.message}`);
      assert.equal(panel.services.service('shop', 'mongo')?.enabled, false);
      const started = await core.runServiceAction(id, { projectName: 'shop', serviceName: 'mongo', action: 'start' });
      assert.equal(started.outcome, 'done', `${style}: ${started.message}`);
      assert.equal(panel.services.service('shop', 'mongo')?.enabled, true);
      assert.deepEqual([writesTo(panel, paths[style]('disable')), writesTo(panel, paths[style]('enable'))], [1, 1], style);
    }
  });

  test('a lost answer to a deploy: unknown (not failed), recorded so, the panel saw exactly one request, and the deploy ran on', async () => {
    const panel = panels.get('public')!;
    const { id } = await signedIn(panel);
    panel.serviceActions.setDeployTime(300);
    panel.serviceActions.loseNextAnswer('deployAppService');
    const result = await core.runServiceAction(id, { projectName: 'shop', serviceName: 'web', action: 'deploy' });
    assert.equal(result.outcome, 'unknown');
    assert.match(result.message ?? '', /the deploy may still be running: check the service/);
    assert.equal(writesTo(panel, '/api/deployAppService'), 1, 'never sent again');
    assert.deepEqual(actionEvents(), ['deploy web sent', 'deploy web unknown']);
    const [entry] = writesOnly((await core.listActivity({ panelId: id })).entries);
    assert.deepEqual([entry?.what.action, entry?.outcome], ['deploy', 'unknown']);
    assert.match(entry?.message ?? '', /may still be running/);
    // The deploy goes on at the panel to its end (300 ms of build; a loaded machine may take longer).
    await waitUntil(() => panel.serviceActions.actions()[0]?.status !== 'running', 10_000);
    assert.equal(panel.serviceActions.actions()[0]?.status, 'done', 'giving up waiting did not cancel it');
  });

  test("a failed deploy: failed in the panel's words, without the token it echoed, anywhere", async () => {
    const panel = panels.get('rpc')!;
    const { id, token } = await signedIn(panel);
    panel.serviceActions.failDeploys('shop', 'web', { message: 'npm ERR! missing script: build' });
    const error = await core.runServiceAction(id, { projectName: 'shop', serviceName: 'web', action: 'deploy' }).then(
      () => assert.fail('expected a failure'),
      (failure: unknown) => failure,
    );
    assert.ok(error instanceof PanelError);
    assert.equal(
      error.message,
      'The panel failed while deploying the service (HTTP 500 Internal Server Error): "npm ERR! missing script: build".',
    );
    assert.equal(writesTo(panel, '/api/rpc/services/app/deployService'), 1);
    const activity = { entries: writesOnly((await core.listActivity()).entries) };
    assert.equal(activity.entries[0]?.outcome, 'failed');
    assert.match(activity.entries[0]?.message ?? '', /npm ERR! missing script: build/);
    // A failure whose words hold the token: they are not quoted at all.
    panel.serviceActions.failDeploys('shop', 'web', { message: `npm ERR! 401 for Bearer ${token} at registry` });
    const echoed = await core
      .runServiceAction(id, { projectName: 'shop', serviceName: 'web', action: 'deploy' })
      .catch((failure: unknown) => failure);
    assert.ok(echoed instanceof PanelError);
    assert.doesNotMatch(echoed.message, /npm ERR! 401/);
    const files = await readAllFiles(dir.path);
    const places = {
      'the activity after': JSON.stringify(await core.listActivity()),
      error: `${error.code} ${error.message} ${echoed.message}`,
      events: JSON.stringify(events),
      activity: JSON.stringify(activity),
      ...Object.fromEntries(files.map((file) => [file.path, file.content])),
    };
    const leaks = Object.entries(places).flatMap(([place, text]) => secretFormsIn(text, token).map((form) => `${place}: ${form}`));
    assert.deepEqual(leaks, []);
    assert.deepEqual(actionEvents(), ['deploy web sent', 'deploy web failed', 'deploy web sent', 'deploy web failed']);
  });

  test('refused before anything is sent: a wrong name, an action the type lacks, no such service, signed out', async () => {
    const panel = panels.get('trpc')!;
    const { id } = await signedIn(panel);
    const before = panel.requests.length;
    const refusal = (input: unknown) =>
      core.runServiceAction(id, input as never).then(
        () => assert.fail('expected a refusal'),
        (error: unknown) => (error instanceof PanelError ? `${error.code}: ${error.message}` : String(error)),
      );
    assert.match(
      await refusal({ projectName: 'Shop!', serviceName: 'web', action: 'stop' }),
      /^INVALID_INPUT: Project name may hold only lower-case letters/,
    );
    assert.match(await refusal({ projectName: 'shop', serviceName: 'web', action: 'delete' }), /^INVALID_INPUT: The action must be/);
    assert.equal(panel.requests.length, before, 'a wrong argument never reaches the panel');
    assert.match(
      await refusal({ projectName: 'shop', serviceName: 'db', action: 'deploy' }),
      /^INVALID_INPUT: shop\/db on .* cannot be deployed/,
    );
    assert.match(
      await refusal({ projectName: 'shop', serviceName: 'db', action: 'restart' }),
      /no restart for a postgres database: stop it, then start it/,
    );
    assert.match(await refusal({ projectName: 'shop', serviceName: 'gone', action: 'stop' }), /^NOT_FOUND: .* has no service shop\/gone/);
    assert.deepEqual(writesOnly((await core.listActivity({ panelId: id })).entries), [], 'nothing was written, nothing recorded');
    await core.logOut(id);
    assert.match(await refusal({ projectName: 'shop', serviceName: 'web', action: 'stop' }), /^NOT_SIGNED_IN/);
  });

  test('one action at a time per service: a second while a deploy is in flight is refused, and the deploy shows in flight', async () => {
    const panel = panels.get('public')!;
    const { id } = await signedIn(panel);
    panel.serviceActions.setDeployTime(2000);
    const deploying = core.runServiceAction(id, { projectName: 'shop', serviceName: 'web', action: 'deploy' });
    // Once the panel has the deploy, whatever the machine's speed.
    await waitUntil(() => writesTo(panel, '/api/deployAppService') === 1, 10_000);
    await assert.rejects(core.runServiceAction(id, { projectName: 'shop', serviceName: 'web', action: 'stop' }), /deploy under way/);
    assert.equal((await deploying).outcome, 'done');
    assert.equal(writesTo(panel, '/api/stopAppService'), 0);
  });
});
