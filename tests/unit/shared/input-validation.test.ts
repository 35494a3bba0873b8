import assert from 'node:assert/strict';
import { test } from 'node:test';
import { validateInput, MAX_INPUT_DEPTH, MAX_INPUT_ISSUES } from '../../../shared/input-validation.ts';
import { CUT_SCHEMA_MARK } from '../../../shared/operations-console.ts';

/** The one check of a console call's input against its operation's schema: the window's as the operator types, and main's before sending. */

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

const createUser = {
  type: 'object',
  properties: {
    email: { type: 'string', format: 'email' },
    password: { type: 'string', minLength: 8 },
    admin: { type: 'boolean' },
    role: { type: 'string', enum: ['admin', 'user'] },
    ports: { type: 'array', items: { type: 'integer', minimum: 1, maximum: 65535 } },
    note: { anyOf: [{ type: 'string' }, { type: 'null' }] },
  },
  required: ['email', 'password'],
  additionalProperties: false,
};

test('an input that fits passes; each misfit is named by its path as the form names fields', () => {
  assert.deepEqual(validateInput(serviceRef, { projectName: 'shop', serviceName: 'web', replicas: 2, tags: ['x'], note: null }), []);
  const issues = validateInput(serviceRef, { projectName: 'Shop!', replicas: 1.5, mode: 'c', tags: ['x', 1, 'y'], extra: true });
  assert.deepEqual(
    issues.map((issue) => issue.path),
    ['serviceName', 'projectName', 'replicas', 'mode', 'tags', 'tags.1', 'extra'],
  );
  assert.match(issues.find((issue) => issue.path === 'replicas')!.message, /whole number/);
  assert.deepEqual(
    validateInput(serviceRef, 'text').map((issue) => issue.message),
    ['Must be an object.'],
  );
});

test('a valid input has no errors', () => {
  assert.deepEqual(
    validateInput(createUser, { email: 'a@b.c', password: '12345678', admin: true, role: 'user', ports: [80, 443], note: null }),
    [],
  );
});

test('each error names its field: required, type, enum, length, bounds, unknown field', () => {
  const errors = validateInput(createUser, { email: 'nope', admin: 'yes', role: 'root', ports: [0, 1.5], extra: 1 });
  assert.deepEqual(errors, [
    { path: 'password', message: 'Required.' },
    { path: 'email', message: 'Must be an email address.' },
    { path: 'admin', message: 'Must be a boolean.' },
    { path: 'role', message: 'Must be one of "admin", "user".' },
    { path: 'ports.0', message: 'At least 1.' },
    { path: 'ports.1', message: 'Must be a whole number.' },
    { path: 'extra', message: 'Not a field of this operation.' },
  ]);
});

test('no schema takes nothing; a cut part takes anything; allOf and anyOf', () => {
  assert.deepEqual(validateInput(null, undefined), []);
  assert.deepEqual(validateInput(null, {}), []);
  assert.equal(validateInput(null, { a: 1 }).length, 1);
  assert.deepEqual(validateInput(null, { a: 1 }), [{ path: '', message: 'This operation takes no input.' }]);
  const cut = { type: 'object', properties: { child: { [CUT_SCHEMA_MARK]: 'cycle' } } };
  assert.deepEqual(validateInput(cut, { child: [1, { deep: true }] }), []);
  const both = { allOf: [serviceRef, { type: 'object', properties: { force: { type: 'boolean' } } }] };
  assert.equal(validateInput(both, { projectName: 'a', serviceName: 'b' }).length, 0);
  const either = { anyOf: [{ type: 'string' }, { type: 'integer' }] };
  assert.deepEqual(validateInput(either, 3), []);
  assert.equal(validateInput(either, true).length, 1);
});

test('a union passes when one choice does, and says what the nearest one wanted when none does', () => {
  assert.deepEqual(validateInput(createUser.properties.note, 'text'), []);
  assert.deepEqual(validateInput(createUser.properties.note, 3), [{ path: '', message: 'Must match one of 2 forms: Must be a string.' }]);
  assert.deepEqual(validateInput({ type: 'string', nullable: true }, null), []);
  // anyOf and oneOf beside each other must both hold, as JSON Schema says.
  const twoUnions = { anyOf: [{ type: 'string' }, { type: 'integer' }], oneOf: [{ type: 'integer' }, { type: 'boolean' }] };
  assert.deepEqual(validateInput(twoUnions, 3), []);
  assert.equal(validateInput(twoUnions, 'text').length, 1);
});

test('nullable takes null whatever the other keywords say', () => {
  assert.deepEqual(validateInput({ type: 'string', enum: ['a'], nullable: true }, null), []);
  assert.deepEqual(validateInput({ type: 'string', nullable: true }, 3), [{ path: '', message: 'Must be a string or null.' }]);
});

test('an operation without input refuses one; the schema of another type says so', () => {
  assert.deepEqual(validateInput({ type: 'object' }, undefined), [{ path: '', message: 'Required.' }]);
  assert.deepEqual(validateInput({ type: 'object' }, [1]), [{ path: '', message: 'Must be an object.' }]);
});

test('lengths count characters as JSON Schema does (code points), and numbers their multiples', () => {
  const short = { type: 'string', minLength: 2, maxLength: 2 };
  assert.deepEqual(validateInput(short, '🙂🙂'), [], 'two emoji are two characters, not four UTF-16 units');
  assert.deepEqual(validateInput(short, '🙂'), [{ path: '', message: 'At least 2 characters.' }]);
  assert.deepEqual(validateInput(short, 'a🙂b'), [{ path: '', message: 'At most 2 characters.' }]);
  assert.deepEqual(validateInput({ type: 'string', minLength: 1 }, ''), [{ path: '', message: 'Must not be empty.' }]);
  assert.deepEqual(validateInput({ type: 'integer', multipleOf: 5 }, 15), []);
  assert.deepEqual(validateInput({ type: 'integer', multipleOf: 5 }, 12), [{ path: '', message: 'A multiple of 5.' }]);
});

test('patterns check, and a pattern this engine cannot read is left to the panel', () => {
  assert.deepEqual(validateInput({ type: 'string', pattern: '^[a-z]+$' }, 'Abc'), [{ path: '', message: 'Must match ^[a-z]+$.' }]);
  assert.deepEqual(validateInput({ type: 'string', pattern: '(?<!' }, 'x'), []);
  assert.deepEqual(validateInput({ type: 'string', pattern: '([' }, 'x'), []);
});

test('a pattern that would backtrack without end is not run', () => {
  const risky = { type: 'string', pattern: '^(a+)+$' };
  const started = performance.now();
  assert.deepEqual(validateInput(risky, `${'a'.repeat(40)}!`), []);
  assert.ok(performance.now() - started < 1000);
});

test('a hostile input stays bounded: deep nesting is refused at a depth, errors stop at a count', () => {
  const deepSchema: Record<string, unknown> = { type: 'array' };
  deepSchema.items = deepSchema;
  let deep: unknown = [];
  for (let level = 0; level < 10_000; level++) deep = [deep];
  const errors = validateInput(deepSchema, deep);
  assert.equal(errors.length, 1);
  assert.match(errors[0]!.message, new RegExp(`deeper than ${MAX_INPUT_DEPTH}`));
  const many = validateInput(
    { type: 'array', items: { type: 'string' } },
    Array.from({ length: 10_000 }, (_, index) => index),
  );
  assert.equal(many.length, MAX_INPUT_ISSUES + 1);
  assert.match(many.at(-1)!.message, /more errors/);
});

test('at most ten issues are reported, and a last line says there were more', () => {
  assert.equal(MAX_INPUT_ISSUES, 10);
  const many = Object.fromEntries(Array.from({ length: 50 }, (_, index) => [`k${index}`, 1]));
  const issues = validateInput({ type: 'object', additionalProperties: false }, many);
  assert.equal(issues.length, 11);
  assert.deepEqual(
    issues.slice(0, 10).map((issue) => issue.path),
    Array.from({ length: 10 }, (_, index) => `k${index}`),
  );
  assert.match(issues.at(-1)!.message, /more errors/);
  const required = { type: 'object', required: Array.from({ length: 50 }, (_, index) => `k${index}`) };
  assert.equal(validateInput(required, {}).length, MAX_INPUT_ISSUES + 1, 'a long required list stops at the cap too');
});
