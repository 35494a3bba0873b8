import assert from 'node:assert/strict';
import { test } from 'node:test';
import { validateInput } from '../../../../shared/input-validation.ts';
import {
  errorsByField,
  formFields,
  initialInput,
  listFromText,
  numberFromText,
  valueAt,
  withValue,
} from '../../../../renderer/console/schema-form.ts';
import { isSecretKey } from '../../../../renderer/console/secret-keys.ts';

/** The form made from an operation's input schema. */

const schema = {
  type: 'object',
  properties: {
    projectName: { type: 'string', description: 'The project' },
    replicas: { type: 'integer', default: 1 },
    ratio: { type: 'number' },
    enabled: { type: 'boolean' },
    kind: { type: 'string', enum: ['app', 'mysql'] },
    domains: { type: 'array', items: { type: 'string' } },
    ports: { type: 'array', items: { type: 'integer' } },
    source: { type: 'object', properties: { image: { type: 'string' }, password: { type: 'string' } }, required: ['image'] },
    mounts: { type: 'array', items: { type: 'object', properties: { path: { type: 'string' } } } },
    note: { anyOf: [{ type: 'string' }, { type: 'null' }] },
    either: { anyOf: [{ type: 'string' }, { type: 'number' }] },
  },
  required: ['projectName', 'enabled'],
};

test('each property becomes the field its schema says; what a form cannot draw well is JSON', () => {
  const fields = formFields(schema, isSecretKey);
  const kinds = Object.fromEntries(fields.map((field) => [field.id, field.kind]));
  assert.deepEqual(kinds, {
    projectName: 'text',
    replicas: 'integer',
    ratio: 'number',
    enabled: 'boolean',
    kind: 'choice',
    domains: 'list',
    ports: 'list',
    source: 'group',
    mounts: 'json',
    note: 'text',
    either: 'json',
  });
  const byId = new Map(fields.map((field) => [field.id, field]));
  assert.equal(byId.get('projectName')!.required, true);
  assert.equal(byId.get('projectName')!.description, 'The project');
  assert.equal(byId.get('ratio')!.required, false);
  assert.equal(byId.get('note')!.nullable, true);
  const source = byId.get('source')!;
  assert.ok(source.kind === 'group');
  assert.deepEqual(
    source.fields.map((field) => [field.id, field.required, field.secret]),
    [
      ['source.image', true, false],
      ['source.password', false, true],
    ],
  );
});

test('an input that is one value is one field; no input, no fields; objects past the depth are JSON', () => {
  assert.deepEqual(
    formFields({ type: 'string' }, isSecretKey).map((field) => [field.id, field.kind]),
    [['', 'text']],
  );
  assert.deepEqual(formFields(null, isSecretKey), []);
  const deep = {
    type: 'object',
    properties: {
      a: {
        type: 'object',
        properties: { b: { type: 'object', properties: { c: { type: 'object', properties: { d: { type: 'string' } } } } } },
      },
    },
  };
  const [a] = formFields(deep, isSecretKey);
  assert.ok(a?.kind === 'group');
  const [b] = a.fields;
  assert.ok(b?.kind === 'group');
  assert.equal(b.fields[0]?.kind, 'json');
});

test('a new input has the defaults and required switches off; fields set and clear values by path', () => {
  const fields = formFields(schema, isSecretKey);
  const input = initialInput(schema, fields);
  assert.deepEqual(input, { replicas: 1, enabled: false });
  const typed = withValue(withValue(input, ['source', 'image'], 'nginx'), ['replicas'], undefined);
  assert.deepEqual(typed, { enabled: false, source: { image: 'nginx' } });
  assert.equal(valueAt(typed, ['source', 'image']), 'nginx');
  assert.equal(valueAt(typed, ['source', 'missing']), undefined);
  assert.deepEqual(withValue(typed, ['source', 'image'], undefined), { enabled: false, source: {} });
});

test('numbers and lists read from what is typed; what is not a number stays text for the check to refuse', () => {
  assert.equal(numberFromText(' 42 '), 42);
  assert.equal(numberFromText(''), undefined);
  assert.equal(numberFromText('4x'), '4x');
  assert.deepEqual(listFromText('a\n\n b \n', 'text'), ['a', 'b']);
  assert.deepEqual(listFromText('80\n443\nx', 'integer'), [80, 443, 'x']);
  assert.equal(listFromText('  \n', 'text'), undefined);
});

test('errors go to the field that shows them, items to their list, the rest above the form', () => {
  const fields = formFields(schema, isSecretKey);
  const errors = validateInput(schema, { enabled: 'no', ports: [1, 'x'], source: {}, extra: 1 });
  const byField = errorsByField(fields, [...errors, { path: 'elsewhere', message: 'Odd.' }]);
  assert.deepEqual(byField.get('projectName'), ['Required.']);
  assert.deepEqual(byField.get('enabled'), ['Must be a boolean.']);
  assert.deepEqual(byField.get('ports'), ['1: Must be a whole number.']);
  assert.deepEqual(byField.get('source.image'), ['Required.']);
  assert.deepEqual(byField.get(''), ['elsewhere: Odd.']);
});
