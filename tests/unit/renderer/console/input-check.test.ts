import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkInput, MAX_ERRORS, MAX_INPUT_DEPTH } from '../../../../renderer/console/input-check.ts';

/** The window's check of an input against the operation's schema, as the operator types. */

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

test('a valid input has no errors', () => {
  assert.deepEqual(
    checkInput(createUser, { email: 'a@b.c', password: '12345678', admin: true, role: 'user', ports: [80, 443], note: null }),
    [],
  );
});

test('each error names its field: required, type, enum, length, bounds, unknown field', () => {
  const errors = checkInput(createUser, { email: 'nope', admin: 'yes', role: 'root', ports: [0, 1.5], extra: 1 });
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

test('a union passes when one choice does, and says what the nearest one wanted when none does', () => {
  assert.deepEqual(checkInput(createUser.properties.note, 'text'), []);
  assert.deepEqual(checkInput(createUser.properties.note, 3), [{ path: '', message: 'Must match one of 2 forms: Must be a string.' }]);
  assert.deepEqual(checkInput({ type: 'string', nullable: true }, null), []);
});

test('an operation without input refuses one; the schema of another type says so', () => {
  assert.deepEqual(checkInput(null, undefined), []);
  assert.deepEqual(checkInput(null, { a: 1 }), [{ path: '', message: 'This operation takes no input.' }]);
  assert.deepEqual(checkInput({ type: 'object' }, undefined), [{ path: '', message: 'Required.' }]);
  assert.deepEqual(checkInput({ type: 'object' }, [1]), [{ path: '', message: 'Must be an object.' }]);
});

test('patterns check, and a pattern this engine cannot read is left to main', () => {
  assert.deepEqual(checkInput({ type: 'string', pattern: '^[a-z]+$' }, 'Abc'), [{ path: '', message: 'Must match ^[a-z]+$.' }]);
  assert.deepEqual(checkInput({ type: 'string', pattern: '(?<!' }, 'x'), []);
});

test('a hostile input stays bounded: deep nesting is refused at a depth, errors stop at a count', () => {
  const deepSchema: Record<string, unknown> = { type: 'array' };
  deepSchema.items = deepSchema;
  let deep: unknown = [];
  for (let level = 0; level < 10_000; level++) deep = [deep];
  const errors = checkInput(deepSchema, deep);
  assert.equal(errors.length, 1);
  assert.match(errors[0]!.message, new RegExp(`deeper than ${MAX_INPUT_DEPTH}`));
  const many = checkInput(
    { type: 'array', items: { type: 'string' } },
    Array.from({ length: 10_000 }, (_, index) => index),
  );
  assert.equal(many.length, MAX_ERRORS + 1);
  assert.match(many.at(-1)!.message, /more errors/);
});
