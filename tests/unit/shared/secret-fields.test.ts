import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isSecretKey, isSecretValue, secretFieldPaths } from '../../../shared/secret-fields.ts';
import { parseFieldPath, valueAtPath } from '../../../shared/field-path.ts';

test('secret keys: API tokens, two-factor secrets, password hashes, env values, in any case and spelling', () => {
  for (const key of [
    'apiToken',
    'api_token',
    'token',
    'accessToken',
    'refresh-token',
    'twoFactorSecret',
    'two_factor_secret',
    'password',
    'passwordHash',
    'rootPassword',
    'env',
    'ENV',
    'environment',
    'clientSecret',
    'privateKey',
    'apiKey',
    'connectionString',
    'databaseUrl',
    'totp',
    'salt',
    // The session view's words, wherever they stand in the key: one rule for both views now.
    'X-Auth-Token',
    'Authorization',
    'auth',
    'sessionKey',
    'key',
    'pwd',
    'jwt',
    'bearer',
    'signature',
    'pin',
    'otp_code',
    'cookie_header',
    'credentials',
    // A key with the word token anywhere: the session view masked it, so the console does too.
    'tokenExpiresAt',
  ]) {
    assert.equal(isSecretKey(key), true, key);
  }
  for (const key of [
    'name',
    'email',
    'hashtags',
    'id',
    'createdAt',
    'projectName',
    'environmentName',
    'envelope',
    '',
    'type',
    // The session view's keys that only look like its words.
    'keyboard',
    'monkey',
    'tokens_used_total',
    'author',
    'passage',
    'description',
    'spinner',
  ]) {
    assert.equal(isSecretKey(key), false, key);
  }
});

test('a password hash is a secret value whatever its key; ordinary text is not', () => {
  assert.equal(isSecretValue('$2b$10$abcdefghijklmnopqrstuu9wCgqJvLnh1uS6w5ahcHMA9fdA2JqK2'), true);
  assert.equal(isSecretValue('$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA'), true);
  assert.equal(isSecretValue('pbkdf2_sha256$600000$salt$hash'), true);
  assert.equal(isSecretValue('hello'), false);
  assert.equal(isSecretValue(42), false);
});

test('secretFieldPaths lists what to mask in a listUsers answer, not an empty or null secret, nor inside a masked one', () => {
  const body = [
    { id: 'u1', email: 'a@b.c', apiToken: 'tok-1', twoFactorSecret: null, password: '$2b$10$x', profile: { hash: '$2b$10$y' } },
    { id: 'u2', email: 'd@e.f', apiToken: '', env: { A: 'B' }, note: '$2a$12$zzzz' },
  ];
  const { paths, complete } = secretFieldPaths(body);
  assert.equal(complete, true);
  const sorted = paths.map((path) => JSON.stringify(path)).sort();
  assert.deepEqual(sorted, ['[0,"apiToken"]', '[0,"password"]', '[0,"profile","hash"]', '[1,"env"]', '[1,"note"]'].sort());
});

test('secretFieldPaths walks deep answers without recursion and stops at its bound', () => {
  let deep: unknown = { apiToken: 'x' };
  for (let level = 0; level < 100_000; level++) deep = [deep];
  const found = secretFieldPaths(deep);
  assert.equal(found.paths.length, 1);
  assert.equal(found.paths[0]!.length, 100_001);
  const bounded = secretFieldPaths(
    Array.from({ length: 100 }, () => ({ a: 1 })),
    50,
  );
  assert.equal(bounded.complete, false);
});

test('field paths: dotted, indexed, quoted, a leading $, and length of a list', () => {
  assert.deepEqual(parseFieldPath('version'), ['version']);
  assert.deepEqual(parseFieldPath('projects[0].name'), ['projects', 0, 'name']);
  assert.deepEqual(parseFieldPath('$.users[1]["api token"]'), ['users', 1, 'api token']);
  assert.deepEqual(parseFieldPath('$'), []);
  assert.deepEqual(parseFieldPath(''), []);
  assert.deepEqual(parseFieldPath('[2]'), [2]);
  for (const bad of ['a..b', 'a.', '.a', 'a[x]', 'a[-1]', 'a b', 'a["x]', 'a.b c']) assert.equal(parseFieldPath(bad), null, bad);
  const answer = { projects: [{ name: 'shop' }, { name: 'blog' }], 'odd key': { x: 1 } };
  assert.equal(valueAtPath(answer, parseFieldPath('projects[1].name')!), 'blog');
  // The placeholder's `0.name` form: a name of digits indexes a list (never an object's key of digits on a list's behalf).
  assert.equal(valueAtPath([{ email: 'a@b.c' }], parseFieldPath('0.email')!), 'a@b.c');
  assert.equal(valueAtPath(answer, parseFieldPath('projects.1.name')!), 'blog');
  assert.equal(valueAtPath({ '0': 'key' }, parseFieldPath('0')!), 'key');
  assert.equal(valueAtPath(answer, parseFieldPath('projects.length')!), 2);
  assert.equal(valueAtPath(answer, parseFieldPath('["odd key"].x')!), 1);
  assert.equal(valueAtPath(answer, parseFieldPath('projects[5].name')!), undefined);
  assert.equal(valueAtPath(answer, parseFieldPath('constructor')!), undefined);
  assert.deepEqual(valueAtPath(answer, parseFieldPath('projects.0')!), { name: 'shop' });
});
