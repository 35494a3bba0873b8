import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { readCatalogue } from '../../../../electron/core/easypanel/operation-catalogue.ts';
import { driftOf, type Listed, resolveFeatures } from '../../../../electron/core/easypanel/panel-features.ts';

/** The two real catalogues (tests/support/fixtures), read as a panel's would be: names and kinds. */
const fixture = (name: string) =>
  JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', '..', 'support', 'fixtures', name), 'utf8'));

async function listedOf(document: unknown): Promise<Listed> {
  const read = await readCatalogue(JSON.stringify(document), (text) => text);
  return new Map(read.operations.map(({ name, kind }) => [name, kind]));
}

/** 2.33.1's operations as an OpenAPI 3.1 document: GET reads with their parameters, POST writes. */
function document233(): unknown {
  const { operations } = fixture('easypanel-2.33.1-operations.json') as {
    operations: Record<string, { method: 'get' | 'post'; params?: Record<string, string> }>;
  };
  const paths = Object.fromEntries(
    Object.entries(operations).map(([name, { method, params }]) => {
      const parameters = Object.entries(params ?? {}).map(([key, type]) => ({ name: key, in: 'query', schema: { type } }));
      return [`/${name}`, { [method]: method === 'get' ? { operationId: name, parameters } : { operationId: name } }];
    }),
  );
  return { openapi: '3.1.0', info: { version: '2.33.1' }, servers: [{ url: '/api' }], paths };
}

/** 2.32.2's procedures as its catalogue lists them: every one a POST under /api/rpc. */
function document232(): unknown {
  const { procedures } = fixture('easypanel-2.32.2-procedures.json') as { procedures: Record<string, { operationId: string }> };
  const paths = Object.fromEntries(Object.entries(procedures).map(([path, { operationId }]) => [path, { post: { operationId } }]));
  return { openapi: '3.0.3', info: { version: '2.32.2' }, servers: [{ url: '/api/rpc' }], paths };
}

test('the real 2.33.1 catalogue: every feature is found, and every request Paneldeck sends is listed with its kind', async () => {
  const listed = await listedOf(document233());
  assert.equal(listed.size, 375);
  const features = resolveFeatures('public', listed);
  assert.deepEqual(
    features.filter((feature) => !feature.available).map(({ id, missing }) => `${id}: ${missing.join(', ')}`),
    [],
  );
  assert.deepEqual(features.find((feature) => feature.id === 'databaseBackups')?.operations, ['listDatabaseBackups', 'runDatabaseBackup']);
  assert.deepEqual(driftOf('public', listed), []);
});

test('the real 2.32.2 catalogue: every feature is found by its RPC names, and no request Paneldeck sends is missing', async () => {
  const listed = await listedOf(document232());
  assert.equal(listed.size, 374);
  const features = resolveFeatures('rpc', listed);
  assert.deepEqual(
    features.filter((feature) => !feature.available).map(({ id, missing }) => `${id}: ${missing.join(', ')}`),
    [],
  );
  assert.deepEqual(features.find((feature) => feature.id === 'updates')?.operations, ['update.getStatus', 'update.update']);
  assert.deepEqual(driftOf('rpc', listed), []);
});

test('a catalogue lacking a feature, or listing a request with the other kind: said, once each', async () => {
  const real = await listedOf(document233());
  const changed = new Map(real);
  changed.delete('runVolumeBackup');
  changed.delete('getDockerTaskStats');
  changed.set('restartAppService', 'read');
  const volumes = resolveFeatures('public', changed).find((feature) => feature.id === 'volumeBackups');
  assert.deepEqual([volumes?.available, volumes?.missing], [false, ['run']]);
  assert.deepEqual(
    driftOf('public', changed).map(({ doing, problem }) => `${problem}: ${doing}`),
    // Paneldeck sends runVolumeBackup since the Backups view: its absence is drift too.
    ['missing: reading which services run', 'kind: restarting the service', 'missing: running a volume backup'],
  );
});
