import assert from 'node:assert/strict';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { createFileLog, describeError, isSecretKey, redactValue, REDACTED, scrubString, silentLog } from '../electron/core/log.ts';
import { tempDir } from './helpers.ts';

const TOKEN = 'tok_3f9c2a7e81b64d0f';
const fixedNow = () => new Date('2025-01-02T03:04:05.678Z');

describe('log redaction', () => {
  test('a value under a key naming a secret is redacted, in every case and separator form', () => {
    const keys = [
      'authorization', 'Authorization', 'proxy-authorization', 'token', 'accessToken', 'access_token', 'refresh-token', 'TOKEN',
      'password', 'newPassword', 'user_password', 'passwd', 'secret', 'clientSecret', 'client_secret', 'cookie', 'Cookie',
      'set-cookie', 'Set-Cookie', 'setCookie', 'apiKey', 'api_key', 'api-key', 'X-API-Key', 'APIKEY', 'bearer', 'bearerToken',
      'credential', 'credentials', 'awsCredentials',
    ];
    for (const key of keys) {
      assert.ok(isSecretKey(key), key);
      const redacted = redactValue({ [key]: TOKEN }) as Record<string, unknown>;
      assert.equal(redacted[key], REDACTED, key);
    }
    for (const key of ['method', 'ms', 'outcome', 'email', 'address', 'platform', 'key', 'api', 'pass']) assert.equal(isSecretKey(key), false, key);
  });

  test('whatever sits under a secret key is redacted whole: objects, arrays, numbers', () => {
    const redacted = redactValue({ token: { value: TOKEN }, password: [TOKEN], secret: 12345 });
    assert.deepEqual(redacted, { token: REDACTED, password: REDACTED, secret: REDACTED });
  });

  test('nested objects and arrays are walked; ordinary values stay as they were', () => {
    const input = {
      method: 'logIn',
      ms: 12,
      ok: true,
      none: null,
      request: { headers: { Authorization: `Bearer ${TOKEN}`, Accept: 'application/json' } },
      attempts: [{ password: 'hunter2' }, { note: 'fine' }, [{ api_key: TOKEN }]],
    };
    assert.deepEqual(redactValue(input), {
      method: 'logIn',
      ms: 12,
      ok: true,
      none: null,
      request: { headers: { Authorization: REDACTED, Accept: 'application/json' } },
      attempts: [{ password: REDACTED }, { note: 'fine' }, [{ api_key: REDACTED }]],
    });
    assert.doesNotMatch(JSON.stringify(redactValue(input)), /hunter2|tok_/);
  });

  test('a "Bearer <token>" inside any string loses its credential, and so does user:password@ in a URL', () => {
    for (const text of [`Bearer ${TOKEN}`, `sent Authorization: Bearer ${TOKEN} to the panel`, `bearer=${TOKEN}`, `BEARER:${TOKEN}`, `{"h":"Bearer ${TOKEN}"}`, `Bearer\n${TOKEN}`]) {
      const scrubbed = scrubString(text);
      assert.ok(!scrubbed.includes(TOKEN), scrubbed);
      assert.match(scrubbed, /bearer \[redacted\]/i);
    }
    assert.deepEqual(redactValue({ note: [`Bearer ${TOKEN}`] }), { note: [`Bearer ${REDACTED}`] });
    assert.equal(scrubString('https://admin:hunter2@panel.example.com/api'), `https://${REDACTED}@panel.example.com/api`);
    assert.equal(scrubString('nothing to hide here'), 'nothing to hide here');
  });

  test('long strings are cut, after the credential was replaced; keys are scrubbed too', () => {
    const long = `${'x'.repeat(995)} Bearer ${TOKEN} ${'y'.repeat(5000)}`;
    const cut = scrubString(long);
    assert.ok(cut.length < 1100, String(cut.length));
    assert.ok(!cut.includes(TOKEN.slice(0, 4)), cut.slice(990));
    assert.match(cut, new RegExp(`\u2026\\[${long.length} chars\\]$`));
    const keyed = redactValue({ [`Bearer ${TOKEN}`]: 1 }) as Record<string, unknown>;
    assert.deepEqual(Object.keys(keyed), [`Bearer ${REDACTED}`]);
  });

  test('an Error is its type and stack frames only, never its message, also when nested', () => {
    const error = new TypeError(`failed with ${TOKEN}\n    at fake (message line holding ${TOKEN})`);
    const described = describeError(error);
    assert.equal(described.type, 'TypeError');
    assert.ok(described.stack.length > 0);
    for (const frame of described.stack) assert.match(frame, /^at /);
    const logged = JSON.stringify(redactValue({ error, list: [new RangeError(TOKEN)] }));
    assert.ok(!logged.includes(TOKEN), logged);
    assert.match(logged, /"type":"RangeError"/);
    assert.deepEqual(describeError('a thrown string with a secret'), { type: 'string', stack: [] });
  });

  test('size and depth are bounded, cycles and hostile objects do not throw', () => {
    const deep: Record<string, unknown> = {};
    let cursor = deep;
    for (let level = 0; level < 50; level++) cursor = cursor.next = {} as Record<string, unknown>;
    assert.match(JSON.stringify(redactValue(deep)), /\[too deep\]/);
    const cycle: Record<string, unknown> = { name: 'loop' };
    cycle.self = cycle;
    assert.deepEqual(redactValue(cycle), { name: 'loop', self: '[circular]' });
    const wide = Array.from({ length: 5000 }, (_, index) => index);
    assert.equal((redactValue(wide) as unknown[]).length, 51);
    const hostile = Object.defineProperty({}, 'boom', { enumerable: true, get: () => { throw new Error(TOKEN); } });
    assert.deepEqual(redactValue({ hostile, big: 10n, bytes: Buffer.from(TOKEN) }), { hostile: { boom: '[unreadable]' }, big: '10', bytes: `[${TOKEN.length} bytes]` });
  });

  test('silentLog accepts every call', () => {
    silentLog.info('x', { a: 1 });
    silentLog.warn('x');
    silentLog.error('x', { error: new Error('e') });
  });
});

describe('file log', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  beforeEach(async () => {
    dir = await tempDir('paneldeck-log-');
  });
  afterEach(() => dir.cleanup());

  const linesOf = (name: string) =>
    readFileSync(join(dir.path, name), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);

  test('writes one JSON object per line: time, level, event, then the redacted fields', () => {
    const log = createFileLog({ dir: join(dir.path, 'logs'), now: fixedNow });
    log.info('ipc.call', { method: 'logIn', ms: 3, outcome: 'ok' });
    log.warn('odd', { password: 'hunter2', time: 'forged' });
    log.error('bug', { error: new Error(`boom ${TOKEN}`) });
    const text = readFileSync(join(dir.path, 'logs', 'paneldeck.log'), 'utf8');
    assert.ok(!text.includes('hunter2') && !text.includes(TOKEN), text);
    assert.equal(text.split('\n').at(0), '{"time":"2025-01-02T03:04:05.678Z","level":"info","event":"ipc.call","method":"logIn","ms":3,"outcome":"ok"}');
    const [, warn, error] = linesOf('logs/paneldeck.log');
    assert.deepEqual(warn, { time: '2025-01-02T03:04:05.678Z', level: 'warn', event: 'odd', password: REDACTED, 'field.time': 'forged' });
    assert.equal(error?.level, 'error');
    assert.equal((error?.error as { type: string }).type, 'Error');
  });

  test('rotates before a write would pass maxBytes, keeping at most maxFiles files', () => {
    const log = createFileLog({ dir: dir.path, maxBytes: 400, maxFiles: 3, now: fixedNow });
    for (let index = 0; index < 40; index++) log.info('entry', { index, padding: 'p'.repeat(40) });
    assert.deepEqual(readdirSync(dir.path).sort(), ['paneldeck.1.log', 'paneldeck.2.log', 'paneldeck.log']);
    for (const name of readdirSync(dir.path)) assert.ok(readFileSync(join(dir.path, name)).length <= 400, name);
    // Newest in paneldeck.log, older ones shifted along, the oldest dropped.
    const indexes = (name: string) => linesOf(name).map((line) => line.index as number);
    const current = indexes('paneldeck.log');
    const first = indexes('paneldeck.1.log');
    const second = indexes('paneldeck.2.log');
    assert.equal(current.at(-1), 39);
    assert.equal(first.at(-1), (current[0] ?? 0) - 1);
    assert.equal(second.at(-1), (first[0] ?? 0) - 1);
    assert.ok((second[0] ?? 0) > 0, 'the oldest entries were dropped');
  });

  test('continues an existing file and counts its size, and maxFiles 1 keeps one file', () => {
    writeFileSync(join(dir.path, 'app.log'), `${'z'.repeat(290)}\n`);
    const log = createFileLog({ dir: dir.path, fileName: 'app.log', maxBytes: 300, maxFiles: 1, now: fixedNow });
    log.info('next');
    assert.deepEqual(readdirSync(dir.path), ['app.log']);
    assert.deepEqual(linesOf('app.log').map((line) => line.event), ['next']);
  });

  test('never throws: a folder that is a file, a folder removed between writes, a throwing clock', () => {
    const file = join(dir.path, 'not-a-folder');
    writeFileSync(file, 'x');
    const broken = createFileLog({ dir: join(file, 'logs') });
    assert.doesNotThrow(() => broken.error('lost', { error: new Error('x') }));
    assert.doesNotThrow(() => createFileLog({ dir: file }).info('lost'));

    const logDir = join(dir.path, 'gone');
    const log = createFileLog({ dir: logDir });
    log.info('one');
    rmSync(logDir, { recursive: true });
    assert.doesNotThrow(() => log.info('two'));
    // The folder is made again and writing goes on.
    assert.deepEqual(linesOf('gone/paneldeck.log').map((line) => line.event), ['two']);

    const clockless = createFileLog({ dir: dir.path, now: () => { throw new Error('no clock'); } });
    assert.doesNotThrow(() => clockless.info('x'));
  });
});
