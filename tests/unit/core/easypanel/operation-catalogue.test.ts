import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { readCatalogue, routeOf } from '../../../../electron/core/easypanel/operation-catalogue.ts';
import { CUT_SCHEMA_MARK, SCHEMA_DEPTH_MAX } from '../../../../shared/operations-console.ts';

const keep = (text: string, max: number) => text.slice(0, max);
const read = (document: unknown) => readCatalogue(JSON.stringify(document), keep);

test('each generation: names, kinds and the routes Paneldeck builds from the names alone', async () => {
  const trpc = await read({
    paths: {
      '/api/trpc/users.listUsers': { get: { summary: 'Users' } },
      '/api/trpc/projects.createProject': { post: { requestBody: { content: { 'application/json': { schema: { type: 'object' } } } } } },
    },
  });
  assert.equal(trpc.generation, 'trpc');
  assert.deepEqual(
    trpc.operations.map(({ name, kind, route }) => [name, kind, route]),
    [
      ['users.listUsers', 'read', '/trpc/users.listUsers'],
      ['projects.createProject', 'write', '/trpc/projects.createProject'],
    ],
  );
  const rpc = await read({
    servers: [{ url: '/api/rpc' }],
    paths: { '/users/listUsers': { post: {} }, '/services/app/deployService': { post: {} } },
  });
  assert.deepEqual(
    rpc.operations.map(({ name, kind, route }) => [name, kind, route]),
    [
      ['users.listUsers', 'read', '/rpc/users/listUsers'],
      ['services.app.deployService', 'write', '/rpc/services/app/deployService'],
    ],
  );
  const plain = await read({
    servers: [{ url: '/api/' }],
    info: { version: '2.33.4' },
    paths: { '/getAction': { get: { parameters: [{ name: 'id', in: 'query', required: true, schema: { type: 'string' } }] } } },
  });
  assert.equal(plain.generation, 'public');
  assert.equal(plain.version, '2.33.4');
  assert.deepEqual(plain.operations[0]!.input, {
    type: 'object',
    properties: { id: { type: 'string' } },
    required: ['id'],
    additionalProperties: false,
  });
  assert.equal(routeOf('public', 'getAction'), '/getAction');
});

test('$refs are inlined, a cycle and a nesting past the depth cut and marked, unknown keywords dropped', async () => {
  const nested: Record<string, unknown> = { type: 'string' };
  let schema: Record<string, unknown> = nested;
  for (let level = 0; level < SCHEMA_DEPTH_MAX + 5; level++) schema = { type: 'array', items: schema, 'x-weird': () => 1 };
  const catalogue = await read({
    servers: [{ url: '/api' }],
    paths: {
      '/loop': { post: { requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Loop' } } } } } },
      '/deep': { post: { requestBody: { content: { 'application/json': { schema } } } } },
    },
    components: {
      schemas: { Loop: { type: 'object', properties: { next: { $ref: '#/components/schemas/Loop' }, __proto__: { type: 'string' } } } },
    },
  });
  const [loop, deep] = catalogue.operations;
  assert.equal((loop!.input!.properties as Record<string, Record<string, unknown>>).next![CUT_SCHEMA_MARK], 'cycle');
  assert.match(JSON.stringify(deep!.input), new RegExp(`"${CUT_SCHEMA_MARK}":"depth"`));
  assert.doesNotMatch(JSON.stringify(deep!.input), /x-weird/);
});

test('refused whole: a server elsewhere, several servers, no paths, not JSON', async () => {
  for (const servers of [
    [{ url: 'https://evil.invalid/api' }],
    [{ url: '/api' }, { url: '/api/rpc' }],
    [{ url: '/api/../x' }],
    { url: '/api' },
  ]) {
    await assert.rejects(read({ servers, paths: { '/x': { get: {} } } }), { code: 'BAD_RESPONSE' });
  }
  await assert.rejects(read({ servers: [{ url: '/api' }] }), { code: 'BAD_RESPONSE' });
  await assert.rejects(readCatalogue('{"paths": ', keep), { code: 'BAD_RESPONSE' });
});

test('paths outside the generation form, other methods and parameters Paneldeck does not fill are skipped with a reason', async () => {
  const catalogue = await read({
    servers: [{ url: '/api' }],
    paths: {
      '/ok': { get: {}, put: {} },
      '/a/b': { get: {} },
      '/%2e%2e': { get: {} },
      '/byPath': { get: { parameters: [{ name: 'id', in: 'path' }] } },
    },
  });
  assert.deepEqual(
    catalogue.operations.map((operation) => operation.name),
    ['ok'],
  );
  assert.equal(catalogue.skipped.length, 4);
});

test('a real 2.32.2 catalogue describes each body whole, {json: input}: the input is what json holds, every procedure read', async () => {
  const fixture = JSON.parse(
    readFileSync(join(import.meta.dirname, '..', '..', '..', 'support', 'fixtures', 'easypanel-2.32.2-procedures.json'), 'utf8'),
  ) as { procedures: Record<string, { operationId: string; inputs?: string[] }> };
  // The document in the real one's shape, from its procedures and their input names.
  const paths = Object.fromEntries(
    Object.entries(fixture.procedures).map(([path, { operationId, inputs }]) => {
      // Two middleware procedures list no inputs (a union of twelve variants): any object.
      const json = { type: 'object', properties: Object.fromEntries((inputs ?? []).map((input) => [input, { type: 'string' }])) };
      const body = {
        required: true,
        content: { 'application/json': { schema: { type: 'object', properties: { json }, required: ['json'] } } },
      };
      return [path, { post: { operationId, ...(inputs?.length === 0 ? {} : { requestBody: body }) } }];
    }),
  );
  const catalogue = await read({ openapi: '3.0.3', info: { version: '2.32.2' }, servers: [{ url: '/api/rpc' }], paths });
  assert.equal(catalogue.generation, 'rpc');
  assert.deepEqual(catalogue.skipped, []);
  assert.equal(catalogue.operations.length, 374);
  const byName = new Map(catalogue.operations.map((operation) => [operation.name, operation]));
  const deploy = byName.get('services.app.deployService');
  assert.deepEqual(Object.keys((deploy?.input?.properties ?? {}) as object).sort(), ['forceRebuild', 'projectName', 'serviceName']);
  assert.equal(JSON.stringify(deploy?.input).includes('"json"'), false, 'the wrapper is not part of the input');
  assert.equal(byName.get('monitorOld.getDockerTaskStats')?.input, null);
  assert.equal(byName.get('actions.listActions')?.kind, 'read');
  assert.equal(byName.get('update.update')?.kind, 'write');
});
