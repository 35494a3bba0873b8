import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkInput } from '../../../../electron/core/common/input-check.ts';
import { CUT_SCHEMA_MARK } from '../../../../shared/operations-console.ts';

const serviceRef = {
  type: 'object',
  properties: {
    projectName: { type: 'string', pattern: '^[a-z0-9-_]+$', minLength: 1 },
    serviceName: { type: 'string', pattern: '^[a-z0-9-_]+$', minLength: 1 },
    replicas: { type: 'integer', minimum: 0, maximum: 10 },
    mode: { type: 'string', enum: ['a', 'b'] },
    tags: { type: 'array', items: { type: 'string' }, maxItems: 2 },
    note: { type: ['string', 'null'] },
  },
  required: ['projectName', 'serviceName'],
  additionalProperties: false,
};

test('an input that fits passes; each misfit is named by its JSON pointer', () => {
  assert.deepEqual(checkInput(serviceRef, { projectName: 'shop', serviceName: 'web', replicas: 2, tags: ['x'], note: null }), []);
  const issues = checkInput(serviceRef, { projectName: 'Shop!', replicas: 1.5, mode: 'c', tags: ['x', 1, 'y'], extra: true });
  assert.deepEqual(
    issues.map((issue) => issue.path),
    ['/serviceName', '/projectName', '/replicas', '/mode', '/tags', '/tags/1', '/extra'],
  );
  assert.match(issues.find((issue) => issue.path === '/replicas')!.message, /integer/);
  assert.deepEqual(
    checkInput(serviceRef, 'text').map((issue) => issue.message),
    ['Must be object, not string.'],
  );
});

test('no schema takes nothing; a cut part takes anything; allOf and anyOf', () => {
  assert.deepEqual(checkInput(null, undefined), []);
  assert.deepEqual(checkInput(null, {}), []);
  assert.equal(checkInput(null, { a: 1 }).length, 1);
  const cut = { type: 'object', properties: { child: { [CUT_SCHEMA_MARK]: 'cycle' } } };
  assert.deepEqual(checkInput(cut, { child: [1, { deep: true }] }), []);
  const both = { allOf: [serviceRef, { type: 'object', properties: { force: { type: 'boolean' } } }] };
  assert.equal(checkInput(both, { projectName: 'a', serviceName: 'b' }).length, 0);
  const either = { anyOf: [{ type: 'string' }, { type: 'integer' }] };
  assert.deepEqual(checkInput(either, 3), []);
  assert.equal(checkInput(either, true).length, 1);
});

test('a pattern that would backtrack without end is not run, and a broken one is left to the panel', () => {
  const risky = { type: 'string', pattern: '^(a+)+$' };
  const started = performance.now();
  assert.deepEqual(checkInput(risky, `${'a'.repeat(40)}!`), []);
  assert.ok(performance.now() - started < 1000);
  assert.deepEqual(checkInput({ type: 'string', pattern: '([' }, 'x'), []);
});

test('at most ten issues are reported', () => {
  const many = Object.fromEntries(Array.from({ length: 50 }, (_, index) => [`k${index}`, 1]));
  assert.equal(checkInput({ type: 'object', additionalProperties: false }, many).length, 10);
});
