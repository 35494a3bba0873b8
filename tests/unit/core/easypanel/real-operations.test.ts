import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { REQUESTS, routesOf } from '../../../../electron/core/easypanel/panel-requests.ts';
import { OPERATIONS as REFERENCE_OPERATIONS } from '../../../support/reference-panel/operations.ts';
import { servedAtVersion } from '../../../support/reference-panel/outcomes.ts';
import { DEFAULT_VERSIONS } from '../../../support/reference-panel/state.ts';

/**
 * Paneldeck's request table and the reference panel judged against two real Easypanel
 * catalogues (docs/easypanel-api.md): a 2.33.1 panel's operations, each with its method and its
 * GET parameters, and a 2.32.2 panel's RPC procedures with their input names. A request that is
 * not in them answers 404 on a real panel.
 */
const fixtures = join(import.meta.dirname, '..', '..', '..', 'support', 'fixtures');
interface RealOperation {
  method: 'get' | 'post';
  params?: Record<string, string>;
}
const real233 = JSON.parse(readFileSync(join(fixtures, 'easypanel-2.33.1-operations.json'), 'utf8')).operations as Record<
  string,
  RealOperation
>;
const real232 = JSON.parse(readFileSync(join(fixtures, 'easypanel-2.32.2-procedures.json'), 'utf8')).procedures as Record<
  string,
  { inputs: string[] }
>;

/**
 * Routes kept only as a fallback for builds the real catalogues do not show, each tried after a
 * real one and remembered once it answers: `monitor/` on a 2.31 build (2.32.2 has only `monitorOld/`).
 */
const FALLBACKS_ABSENT_FROM_2_32_2 = new Set(['/rpc/monitor/getDockerTaskStats']);

test('the fixtures are the real catalogues: 375 operations of 2.33.1, 374 procedures of 2.32.2', () => {
  assert.equal(Object.keys(real233).length, 375);
  assert.equal(Object.keys(real232).length, 374);
});

test('every 2.33 route of the request table is a real 2.33.1 operation with its real method, or a real RPC procedure', () => {
  const wrong: string[] = [];
  for (const [name, operation] of Object.entries(REQUESTS)) {
    const method = operation.kind === 'query' ? 'get' : 'post';
    for (const route of routesOf(operation, 'public')) {
      if (route.startsWith('/rpc/')) {
        // 2.33 still answers the RPC layer: a read with a number goes there (`via`).
        if (!real232[route.slice('/rpc'.length)]) wrong.push(`${name}: ${route} is no RPC procedure`);
        continue;
      }
      const found = real233[route.slice(1)];
      if (!found) wrong.push(`${name}: ${route} is no 2.33.1 operation`);
      else if (found.method !== method)
        wrong.push(`${name}: ${route} is ${found.method.toUpperCase()} on 2.33.1, sent as ${method.toUpperCase()}`);
    }
  }
  assert.deepEqual(wrong, []);
});

test('every 2.31–2.32 route of the request table is a real 2.32.2 procedure, the first one tried above all', () => {
  const wrong: string[] = [];
  for (const [name, operation] of Object.entries(REQUESTS)) {
    const routes = routesOf(operation, 'rpc');
    routes.forEach((route, index) => {
      const procedure = route.slice('/rpc'.length);
      if (real232[procedure]) return;
      if (index > 0 && FALLBACKS_ABSENT_FROM_2_32_2.has(route)) return;
      wrong.push(`${name}: ${route} (tried ${index === 0 ? 'first' : `as fallback ${index}`}) is no 2.32.2 procedure`);
    });
  }
  assert.deepEqual(wrong, []);
});

test('MongoDB and MariaDB are written by their real 2.33 names', () => {
  assert.deepEqual(routesOf(REQUESTS.enableMongoDBService, 'public'), ['/enableMongoDBService']);
  assert.deepEqual(routesOf(REQUESTS.disableMongoDBService, 'public'), ['/disableMongoDBService']);
  assert.deepEqual(routesOf(REQUESTS.enableMariaDBService, 'public'), ['/enableMariaDBService']);
  assert.equal(real233.enableMongoDBService?.method, 'post');
  assert.equal(real233.enableMongoService, undefined);
});

test('the reference panel serves only real names: its 2.33 style as 2.33.1 lists them, its 2.32 style as 2.32.2 does', () => {
  const wrong: string[] = [];
  const version233 = DEFAULT_VERSIONS.public!;
  const version232 = DEFAULT_VERSIONS.rpc!;
  assert.match(version233, /^2\.3[3-9]\./);
  assert.match(version232, /^2\.32\./);
  for (const operation of REFERENCE_OPERATIONS) {
    if (operation.public !== null && servedAtVersion(operation, version233)) {
      const found = real233[operation.public];
      const method = operation.kind === 'query' ? 'get' : 'post';
      if (!found) wrong.push(`2.33: ${operation.public} is no 2.33.1 operation`);
      else if (found.method !== method) wrong.push(`2.33: ${operation.public} is ${found.method}, served as ${method}`);
    }
    if (operation.rpc !== null && servedAtVersion(operation, version232) && !real232[`/${operation.rpc}`])
      wrong.push(`2.32: ${operation.rpc} is no 2.32.2 procedure`);
  }
  assert.deepEqual(wrong, []);
});
