import assert from 'node:assert/strict';
import { test } from 'node:test';
import { logInBody } from '../../../../electron/core/easypanel/generation-wire.ts';
import { logInFields } from '../../../../electron/core/easypanel/panel-endpoints.ts';

const email = 'ops@example.com';
const password = 'pw';

test('a log in sends rememberMe only when asked for, and the code only once the panel asked for one', () => {
  assert.deepEqual(logInFields({ email, password }), { email, password });
  assert.deepEqual(logInFields({ email, password, rememberMe: false }), { email, password });
  assert.deepEqual(logInFields({ email, password, rememberMe: true }), { email, password, rememberMe: true });
  assert.deepEqual(logInFields({ email, password, rememberMe: true, code: '123456' }), {
    email,
    password,
    rememberMe: true,
    code: '123456',
  });
});

test('rememberMe goes in each generation’s wire format', () => {
  const fields = logInFields({ email, password, rememberMe: true });
  assert.deepEqual(JSON.parse(logInBody('public', fields)), { email, password, rememberMe: true });
  assert.deepEqual(JSON.parse(logInBody('rpc', fields)), { json: { email, password, rememberMe: true } });
  assert.deepEqual(JSON.parse(logInBody('trpc', fields)), { json: { email, password, rememberMe: true } });
});
