import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import type { Core } from '../../electron/core/index.ts';
import type { CatalogueOperation, OperationAnswer } from '../../shared/operations-console.ts';
import { keeping, rejectsWith, tempDir, writesOnly } from '../support/helpers.ts';
import { DEMO_USER, type ReferencePanel, SERVICE_TYPES, startReferencePanel } from '../support/reference-panel/server.ts';
import { EASYPANEL_GENERATIONS, openSignedIn } from '../support/signed-in-core.ts';

/**
 * The API console against real reference panels in each generation: the catalogue each serves,
 * every operation in it called in the generation's form, inputs refused in main before anything is
 * sent, a write's activity entries, and the token in no answer, error or entry.
 */

const WRITABLE = SERVICE_TYPES.filter((type) => type !== 'box' && type !== 'wordpress');

/** A valid input for each operation of the reference catalogue, by its name. */
function inputFor(operation: CatalogueOperation, actionId: string | null): unknown {
  const { name } = operation;
  if (/(^|\.)login$/.test(name)) return { email: DEMO_USER.email, password: DEMO_USER.password };
  if (/createProject$/.test(name)) return { name: `made-${name.length}` };
  if (/(getAction|killAction)$/.test(name)) return { id: actionId ?? 'none' };
  // The schedules seeded for each run (beforeEach), and the database whose schedules are listed.
  if (/run(Database|Volume)Backup$/.test(name)) return { id: 'console-backup' };
  if (/list(Database|Volume)Backups$/.test(name)) return { projectName: 'shop', serviceName: 'postgres' };
  const typed =
    /services\.([a-z]+)\.\w+Service$/.exec(name) ?? /^(?:deploy|start|stop|restart|enable|disable|inspect)([A-Za-z]+)Service$/.exec(name);
  // The demo's services are named after their type; 2.33 spells Mongo's type MongoDB in its names.
  if (typed) return { projectName: 'shop', serviceName: typed[1]!.toLowerCase().replace(/^mongodb$/, 'mongo') };
  return operation.input === null ? undefined : {};
}

/** Reads first, then writes, then getAction and killAction (an action exists by then), the log out last: it ends the session. */
function callOrder(operations: CatalogueOperation[]): CatalogueOperation[] {
  const rank = (operation: CatalogueOperation) =>
    /logout$/.test(operation.name) ? 3 : /(getAction|killAction)$/.test(operation.name) ? 2 : operation.kind === 'write' ? 1 : 0;
  return [...operations].sort((a, b) => rank(a) - rank(b));
}

describe('the catalogue and a call of each operation, in each generation', () => {
  for (const style of EASYPANEL_GENERATIONS) {
    let panel: ReferencePanel;
    let dir: Awaited<ReturnType<typeof tempDir>>;
    before(async () => {
      panel = await startReferencePanel({ style });
    });
    after(() => panel.close());
    beforeEach(async () => {
      dir = await tempDir();
      for (const record of panel.services.services()) panel.services.removeService(record.projectName, record.name);
      for (const type of WRITABLE) panel.services.addService({ projectName: 'shop', name: type, type });
      for (const kind of ['database', 'volume'] as const) panel.backups.addSchedule(kind, 'shop', 'postgres', { id: 'console-backup' });
      panel.serviceActions.setDeployTime(5);
      panel.requests.splice(0);
    });
    afterEach(() => dir.cleanup());

    test(`${style}: every listed operation is read and can be called; nothing goes outside /api`, async () => {
      const { core, id, token } = await openSignedIn(dir.path, panel);
      const seen: unknown[] = [];
      const catalogue = await keeping(seen, core.getOperations(id));
      assert.equal(catalogue.generation, style);
      assert.equal(catalogue.version, panel.version());
      assert.deepEqual(catalogue.skipped, []);
      assert.ok(catalogue.operations.length >= 20, `${catalogue.operations.length} operations`);
      const listUsers = catalogue.operations.find((operation) => /listUsers$/.test(operation.name));
      assert.equal(listUsers?.kind, 'read');
      const deploy = catalogue.operations.find(
        (operation) => /deploy(App)?Service$/.test(operation.name) && /app|App/.test(operation.name),
      );
      assert.equal(deploy?.kind, 'write');
      // The $ref'd ServiceRef is inlined: the window draws its fields.
      const properties = JSON.stringify(deploy?.input);
      assert.match(properties, /projectName/);
      assert.match(properties, /forceRebuild/);
      assert.doesNotMatch(properties, /\$ref/);

      let actionId: string | null = null;
      for (const operation of callOrder(catalogue.operations)) {
        // A deploy's answer waits for its end, so no deploy is still running here: one is begun on the panel's side to be killed.
        if (/killAction$/.test(operation.name)) actionId = panel.serviceActions.beginAction('shop', 'app', 'deployment').id;
        // Easypanel's own update restarts the panel: on the version it has, and back before the next call.
        const update = /^update([./]update)?$/.test(operation.name);
        if (update) panel.setUpdate({ to: panel.version() ?? '2.33.4', sameVersion: true });
        const away = update ? panel.nextRestart('away') : null;
        const answer: OperationAnswer = await keeping(
          seen,
          core.callOperation(id, { operation: operation.name, input: inputFor(operation, actionId) }),
        );
        if (away) {
          await away;
          panel.finishRestart();
          panel.setUpdate(null);
        }
        assert.equal(answer.status, 200, `${operation.name}: ${answer.status} ${JSON.stringify(answer.body ?? answer.text)}`);
        assert.equal(answer.truncated, false);
        if (/listActions$/.test(operation.name) || /deploy/.test(operation.name)) {
          const listed = await core.callOperation(id, {
            operation: catalogue.operations.find((one) => /listActions$/.test(one.name))!.name,
            input: {},
          });
          actionId = (listed.body as { id: string }[])[0]?.id ?? actionId;
        }
      }
      for (const request of panel.requests) assert.match(request.path, /^\/api\//, request.path);
      assert.ok(!JSON.stringify(seen).includes(token), 'the token is in an answer');
      const users = seen.find((value) => Array.isArray((value as { body?: unknown }).body) && JSON.stringify(value).includes('apiToken'));
      assert.ok(users, 'listUsers answered its users (their secrets are for the window to mask)');
    });

    test(`${style}: an input that does not fit the schema is refused in main, and the panel hears nothing`, async () => {
      const { core, id } = await openSignedIn(dir.path, panel);
      const catalogue = await core.getOperations(id);
      const create = catalogue.operations.find((operation) => /createProject$/.test(operation.name))!;
      panel.requests.splice(0);
      const bad = [{}, { name: 'Not Valid!' }, { name: 'ok', extra: 1 }, { name: 42 }, 'text'];
      for (const input of bad) {
        const error = await rejectsWith(core.callOperation(id, { operation: create.name, input }), 'INVALID_INPUT');
        assert.match(error.message, /Not sent/);
      }
      await rejectsWith(core.callOperation(id, { operation: 'no.such.operation', input: {} }), 'NOT_FOUND');
      assert.deepEqual(panel.requests, [], 'nothing reached the panel');
    });

    test(`${style}: a write is in the activity log before it is sent and with its outcome, by name, never its input`, async () => {
      const { core, id, token } = await openSignedIn(dir.path, panel);
      const catalogue = await core.getOperations(id);
      const create = catalogue.operations.find((operation) => /createProject$/.test(operation.name))!;
      const done = await core.callOperation(id, { operation: create.name, input: { name: 'secret-project-name' } });
      assert.equal(done.status, 200);
      const refused = await core.callOperation(id, { operation: create.name, input: { name: 'secret-project-name' } });
      assert.equal(refused.status, 400);
      const entries = writesOnly((await core.listActivity({ panelId: id })).entries);
      assert.deepEqual(
        entries.map((entry) => [entry.what.action, entry.what.operation, entry.outcome]),
        [
          ['operation', create.name, 'failed'],
          ['operation', create.name, 'ok'],
        ],
      );
      assert.ok(!JSON.stringify(entries).includes('secret-project-name'), 'the input is not in the log');
      assert.ok(!JSON.stringify(entries).includes(token));
    });
  }
});

test('the catalogue is cached per panel and version, and read again when the version changes', async () => {
  const panel = await startReferencePanel({ style: 'public' });
  const dir = await tempDir();
  try {
    const { core, id }: { core: Core; id: string } = await openSignedIn(dir.path, panel);
    const reads = () => panel.requests.filter((request) => request.path === '/api/openapi.json').length;
    await core.getOperations(id);
    await core.getOperations(id);
    assert.equal(reads(), 1);
    panel.setVersion('2.34.0');
    await core.checkPanels([id]);
    const again = await core.getOperations(id);
    assert.equal(again.version, '2.34.0');
    assert.equal(reads(), 2);
  } finally {
    await panel.close();
    await dir.cleanup();
  }
});

test('2.33: a console read with a number goes through the RPC layer (a GET of limit=5 is refused there), a text-only read stays a GET', async () => {
  const panel = await startReferencePanel({ style: 'public', demoProjects: 1 });
  const dir = await tempDir();
  try {
    const { core, id, token }: { core: Core; id: string; token: string } = await openSignedIn(dir.path, panel);
    // What a real 2.33 does with the number as text in a GET, which the console sent before.
    const raw = await fetch(`${panel.url}/api/listActions?limit=5`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(raw.status, 400);
    const from = panel.requests.length;
    const answer = await core.callOperation(id, { operation: 'listActions', input: { limit: 5 } });
    assert.equal(answer.status, 200, JSON.stringify(answer.body ?? answer.text));
    assert.ok(Array.isArray(answer.body), 'the RPC envelope is taken off the answer');
    // After the catalogue's read, which tells the parameter's type.
    const sent = panel.requests.slice(from).filter((request) => request.path !== '/api/openapi.json');
    assert.deepEqual(
      sent.map((request) => `${request.method} ${request.path}`),
      ['POST /api/rpc/actions/listActions'],
    );
    assert.deepEqual(JSON.parse(sent[0]!.body), { json: { limit: 5 } });
    const before = panel.requests.length;
    const text = await core.callOperation(id, { operation: 'getAction', input: { id: 'none' } });
    assert.notEqual(text.status, 401);
    assert.deepEqual(
      panel.requests.slice(before).map((request) => `${request.method} ${request.path.split('?')[0]}`),
      ['GET /api/getAction'],
    );
  } finally {
    await panel.close();
    await dir.cleanup();
  }
});
