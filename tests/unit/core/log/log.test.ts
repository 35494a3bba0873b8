import assert from 'node:assert/strict';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import fc from 'fast-check';
import { createFileLog } from '../../../../electron/core/log/file-log.ts';
import {
  describeError,
  formatEntry,
  isSecretKey,
  redactValue,
  REDACTED,
  scrubString,
  silentLog,
} from '../../../../electron/core/log/log.ts';
import { tempDir } from '../../../support/helpers.ts';

const TOKEN = 'tok_3f9c2a7e81b64d0f';
const fixedNow = () => new Date('2025-01-02T03:04:05.678Z');

describe('log redaction', () => {
  test('a value under a key naming a secret is redacted, in every case and separator form', () => {
    const keys = [
      'authorization',
      'Authorization',
      'proxy-authorization',
      'token',
      'accessToken',
      'access_token',
      'refresh-token',
      'TOKEN',
      'password',
      'newPassword',
      'user_password',
      'passwd',
      'secret',
      'clientSecret',
      'client_secret',
      'cookie',
      'Cookie',
      'set-cookie',
      'Set-Cookie',
      'setCookie',
      'apiKey',
      'api_key',
      'api-key',
      'X-API-Key',
      'APIKEY',
      'bearer',
      'bearerToken',
      'credential',
      'credentials',
      'awsCredentials',
    ];
    for (const key of keys) {
      assert.ok(isSecretKey(key), key);
      const redacted = redactValue({ [key]: TOKEN }) as Record<string, unknown>;
      assert.equal(redacted[key], REDACTED, key);
    }
    for (const key of ['method', 'ms', 'outcome', 'email', 'address', 'platform', 'key', 'api', 'pass'])
      assert.equal(isSecretKey(key), false, key);
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
    for (const text of [
      `Bearer ${TOKEN}`,
      `sent Authorization: Bearer ${TOKEN} to the panel`,
      `bearer=${TOKEN}`,
      `BEARER:${TOKEN}`,
      `{"h":"Bearer ${TOKEN}"}`,
      `Bearer\n${TOKEN}`,
    ]) {
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
    const hostile = Object.defineProperty({}, 'boom', {
      enumerable: true,
      get: () => {
        throw new Error(TOKEN);
      },
    });
    assert.deepEqual(redactValue({ hostile, big: 10n, bytes: Buffer.from(TOKEN) }), {
      hostile: { boom: '[unreadable]' },
      big: '10',
      bytes: `[${TOKEN.length} bytes]`,
    });
  });

  test('session ids, auth headers, JWTs, CSRF tokens and one-time codes are secret keys; short names match whole words only', () => {
    const keys = [
      'x-auth',
      'X-Auth',
      'auth',
      'authCode',
      'proxy_auth',
      'X-Session-Id',
      'sessionid',
      'sessionId',
      'session_id',
      'SESSION-ID',
      'JSESSIONID',
      'PHPSESSID',
      'sid',
      'SID',
      'userSid',
      'connect.sid',
      'jwt',
      'idJwt',
      'refresh_token',
      'session_token',
      'sessionKey',
      'xsrf',
      'X-XSRF-TOKEN',
      'csrf',
      '_csrf',
      'otp',
      'otpCode',
      'TOTP',
      'pwd',
      'DB_PWD',
      'pin',
      'sig',
      'signature',
      'X-Amz-Signature',
      'passcode',
    ];
    for (const key of keys) {
      assert.ok(isSecretKey(key), key);
      assert.equal((redactValue({ [key]: TOKEN }) as Record<string, unknown>)[key], REDACTED, key);
    }
    const harmless = [
      'method',
      'ms',
      'outcome',
      'email',
      'address',
      'platform',
      'key',
      'api',
      'pass',
      'side',
      'inside',
      'session',
      'sessions',
      'author',
      'authority',
      'authorName',
      'code',
      'exitCode',
      'reason',
      'sidebar',
      'considered',
      'signal',
      'design',
      'footprint',
      'spinner',
      'pinned',
    ];
    for (const key of harmless) assert.equal(isSecretKey(key), false, key);
    assert.deepEqual(redactValue({ session: { user: 'op', sid: TOKEN }, exitCode: 1 }), {
      session: { user: 'op', sid: REDACTED },
      exitCode: 1,
    });
  });

  test('the credential after any HTTP auth scheme is replaced, in any case, and the scheme kept', () => {
    const cases: [string, string][] = [
      ['Basic dXNlcjpwYXNz', `Basic ${REDACTED}`],
      ['basic dXNlcjpwYXNz', `basic ${REDACTED}`],
      [`Token ${TOKEN}`, `Token ${REDACTED}`],
      [`TOKEN ${TOKEN}`, `TOKEN ${REDACTED}`],
      [`ApiKey ${TOKEN}`, `ApiKey ${REDACTED}`],
      [`Api-Key ${TOKEN}`, `Api-Key ${REDACTED}`],
      [`JWT eyJhbGciOiJIUzI1NiJ9.${TOKEN}.c2ln`, `JWT ${REDACTED}`],
      [`Negotiate YIIGhgYGKwYBBQUCoIIGejCCBnag${TOKEN}`, `Negotiate ${REDACTED}`],
      [`NTLM TlRMTVNTUAABAAAAB4IIog${TOKEN}==`, `NTLM ${REDACTED}`],
      [`DPoP ${TOKEN}`, `DPoP ${REDACTED}`],
      [`Digest username="op", realm="panel", nonce="${TOKEN}", uri="/api", response="6629fae49393a053"`, `Digest ${REDACTED}`],
      [
        `AWS4-HMAC-SHA256 Credential=AKIA${TOKEN}/20250102/eu/s3/aws4_request, SignedHeaders=host, Signature=fe5f80f77d5fa3be`,
        `AWS4-HMAC-SHA256 ${REDACTED}`,
      ],
      [`sent Authorization: Basic dXNlcjpwYXNz to the panel`, `sent Authorization: Basic ${REDACTED} to the panel`],
      [`{"authorization":"Token ${TOKEN}","accept":"*/*"}`, `{"authorization":"${REDACTED}","accept":"*/*"}`],
      [`{"h":"token ${TOKEN}"}`, `{"h":"token ${REDACTED}"}`],
    ];
    for (const [text, expected] of cases) {
      assert.equal(scrubString(text), expected, text);
      assert.ok(!JSON.stringify(redactValue({ note: text })).includes(TOKEN), text);
    }
    // A scheme's name in a stack frame or a file name is not followed by a credential.
    for (const frame of [
      'at Token.parse (file:///app/electron/core/token-vault.ts:12:5)',
      'at basic (node:internal/x:1:2)',
      'at new Digest (/app/digest.js:3:4)',
    ]) {
      assert.equal(scrubString(frame), frame);
    }
  });

  test('a secret query parameter in a URL loses its value and the URL stays readable', () => {
    const base = 'https://panel.example.com/cb';
    const cases: [string, string][] = [
      [`${base}?access_token=${TOKEN}&state=ok`, `${base}?access_token=${REDACTED}&state=ok`],
      [`${base}?page=2&token=${TOKEN}`, `${base}?page=2&token=${REDACTED}`],
      [`${base}?api_key=${TOKEN}&x=1`, `${base}?api_key=${REDACTED}&x=1`],
      [`${base}?user=op&password=hunter%2F2#top`, `${base}?user=op&password=${REDACTED}`],
      [`${base}?sig=${TOKEN}&se=2025-01-02`, `${base}?sig=${REDACTED}&se=2025-01-02`],
      [
        `${base}?X-Amz-Signature=fe5f80f77d5fa3be&X-Amz-Credential=AKIA%2F2025&X-Amz-Date=20250102`,
        `${base}?X-Amz-Signature=${REDACTED}&X-Amz-Credential=${REDACTED}&X-Amz-Date=20250102`,
      ],
      [`${base}?signature=${TOKEN}`, `${base}?signature=${REDACTED}`],
      [`${base}#access_token=${TOKEN}&token_type=bearer`, `${base}#access_token=${REDACTED}&token_type=${REDACTED}`],
      [`${base}?sid=${TOKEN}&jwt=${TOKEN}&refresh_token=${TOKEN}`, `${base}?sid=${REDACTED}&jwt=${REDACTED}&refresh_token=${REDACTED}`],
      [`${base}?code=ENOENT&side=left&inside=1`, `${base}?code=ENOENT&side=left&inside=1`],
    ];
    for (const [text, expected] of cases) assert.equal(scrubString(text), expected, text);
  });

  test('secret keys inside JSON-looking or key=value text lose their values, other pairs stay', () => {
    const cases: [string, string][] = [
      ['{"email":"a@b","password":"hunter2"}', `{"email":"a@b","password":"${REDACTED}"}`],
      [
        `{ "user": { "apiKey" : "${TOKEN}", "name": "op" }, "sid": "a\\"b" }`,
        `{ "user": { "apiKey" : "${REDACTED}", "name": "op" }, "sid": "${REDACTED}" }`,
      ],
      ['{"pin":1234,"ok":true}', `{"pin":${REDACTED},"ok":true}`],
      ['{"credentials":{"user":"op","pass":"hunter2"},"n":1}', `{"credentials":${REDACTED},"n":1}`],
      ['{"credentials":{"nested":{"pass":"hunter2"}},"n":1}', `{"credentials":${REDACTED}`],
      ['{"secrets":["hunter2","x"],"n":1}', `{"secrets":${REDACTED},"n":1}`],
      ["{'client_secret': 'hunter2'}", `{'client_secret': '${REDACTED}'}`],
      ['{\\"password\\":\\"hunter2\\"}', `{\\"password\\":\\"${REDACTED}\\"}`],
      ['{"password":"hunter2 and the rest was cut', `{"password":"${REDACTED}`],
      ['login password = hunter2 failed', `login password = ${REDACTED} failed`],
      ['password: hunter2', `password: ${REDACTED}`],
      ['Cookie: sid=hunter2; theme=dark', `Cookie: ${REDACTED}; theme=dark`],
      ['Set-Cookie: id=hunter2; Path=/; HttpOnly', `Set-Cookie: ${REDACTED}; Path=/; HttpOnly`],
      ['note=x-auth=hunter2', `note=x-auth=${REDACTED}`],
      ['{"email":"a@b","note":"password reset","at":"12:30"}', '{"email":"a@b","note":"password reset","at":"12:30"}'],
      [
        'at Object.token (file:///app/electron/core/token-field.ts:12:5)',
        'at Object.token (file:///app/electron/core/token-field.ts:12:5)',
      ],
    ];
    for (const [text, expected] of cases) assert.equal(scrubString(text), expected, text);
    assert.deepEqual(redactValue({ body: '{"email":"a@b","password":"hunter2"}' }), { body: `{"email":"a@b","password":"${REDACTED}"}` });
  });

  test('array items are scrubbed, and the item after a secret name is redacted: header pairs and flat header lists', () => {
    const input = {
      headers: [
        ['authorization', `Bearer ${TOKEN}`],
        ['Cookie', 'a=b'],
        ['Accept', 'application/json'],
        ['X-Auth', TOKEN],
      ],
      rawHeaders: ['Set-Cookie', `id=${TOKEN}`, 'Content-Type', 'text/plain', 'Proxy-Authorization', { scheme: 'Basic', value: TOKEN }],
      lines: [`password=${TOKEN}`, `Authorization: ${TOKEN}`, `https://op:${TOKEN}@panel.example.com/`],
      har: [
        { name: 'Authorization', value: TOKEN },
        { name: 'Accept', value: '*/*' },
        { key: 'api_key', value: TOKEN },
      ],
    };
    assert.deepEqual(redactValue(input), {
      headers: [
        ['authorization', REDACTED],
        ['Cookie', REDACTED],
        ['Accept', 'application/json'],
        ['X-Auth', REDACTED],
      ],
      rawHeaders: ['Set-Cookie', REDACTED, 'Content-Type', 'text/plain', 'Proxy-Authorization', REDACTED],
      lines: [`password=${REDACTED}`, `Authorization: ${REDACTED}`, `https://${REDACTED}@panel.example.com/`],
      har: [
        { name: 'Authorization', value: REDACTED },
        { name: 'Accept', value: '*/*' },
        { key: 'api_key', value: REDACTED },
      ],
    });
    // A sentence naming a secret is prose, not a header name: the next item stays.
    assert.deepEqual(redactValue(['the password was wrong', 'try again']), ['the password was wrong', 'try again']);
  });

  test('a URL password holding "/" or "@", encoded or not, is replaced whole; ports and paths with "@" are not passwords', () => {
    const cases: [string, string][] = [
      ['https://user:pa/ss@panel.example.com/api', `https://${REDACTED}@panel.example.com/api`],
      ['https://user:p@ss@panel.example.com/api', `https://${REDACTED}@panel.example.com/api`],
      ['https://user:p%40ss%2Fw@panel.example.com:8443/', `https://${REDACTED}@panel.example.com:8443/`],
      ['https://user:a@b/c@d@panel.example.com/x?y=1', `https://${REDACTED}@panel.example.com/x?y=1`],
      [
        'see "https://user:pa/ss@panel.example.com/" and "mailto:a@b.example"',
        `see "https://${REDACTED}@panel.example.com/" and "mailto:a@b.example"`,
      ],
      [`https://${TOKEN}@github.com/org/repo.git`, `https://${REDACTED}@github.com/org/repo.git`],
      ['http://localhost:5173/@vite/client', 'http://localhost:5173/@vite/client'],
      ['https://mastodon.example/@alice', 'https://mastodon.example/@alice'],
      ['https://panel.example.com/users?email=a@b.example', 'https://panel.example.com/users?email=a@b.example'],
    ];
    for (const [text, expected] of cases) assert.equal(scrubString(text), expected, text);
  });

  test('a megabyte of hostile text or keys is scrubbed in bounded work, and what its head holds is still hidden', () => {
    const mega = 1024 * 1024;
    const hostile = [
      '//a:'.repeat(mega / 4),
      '"password":"'.repeat(mega / 12),
      'password='.repeat(mega / 9),
      'a'.repeat(mega),
      '-A'.repeat(mega / 2),
      'Digest a="b", '.repeat(mega / 14),
      'Bearer '.repeat(mega / 7),
      `${'\\'.repeat(mega / 2)}"`,
      '{"x":['.repeat(mega / 6),
      'https://u:@'.repeat(mega / 11),
    ];
    // Each string and each key is a separate node, so the whole object is scanned; a slow pattern hangs here.
    const fields = Object.fromEntries(hostile.map((text, index) => [`f${index}`, [`password=hunter2 ${text}`, text]]));
    const keyed = Object.fromEntries(hostile.map((text) => [text, 1]));
    const line = formatEntry(new Date(0), 'info', 'hostile', { fields, keyed, last: `Basic dXNlcjpwYXNz ${hostile[0] ?? ''}` });
    assert.ok(!line.includes('hunter2') && !line.includes('dXNlcjpwYXNz'));
    // A key too long to be a name is not searched whole: its value is hidden.
    assert.ok(Object.values(JSON.parse(line).keyed as Record<string, unknown>).every((value) => value === REDACTED));
    assert.ok(line.length < 200_000, String(line.length));
  });

  test('property: a random secret under any secret key spelling, auth scheme, query parameter or URL password never reaches the line', () => {
    const secret = fc.stringMatching(/^[A-Za-z0-9][\w.~+/=-]{11,39}$/);
    const password = fc.stringMatching(/^[A-Za-z][\w.~+/=!$*,;:@%?#&-]{11,39}$/);
    const words = [
      ['x', 'auth'],
      ['auth'],
      ['session', 'id'],
      ['sid'],
      ['jwt'],
      ['refresh', 'token'],
      ['session', 'token'],
      ['api', 'key'],
      ['xsrf', 'token'],
      ['csrf'],
      ['otp'],
      ['client', 'secret'],
      ['password'],
      ['authorization'],
      ['set', 'cookie'],
      ['sig'],
      ['signature'],
      ['passwd'],
      ['credentials'],
    ];
    const capital = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);
    const spellings = [
      (parts: string[]) => parts.join('_'),
      (parts: string[]) => parts.join('-'),
      (parts: string[]) => parts.join('.'),
      (parts: string[]) => parts.map(capital).join('-'),
      (parts: string[]) => parts.join('_').toUpperCase(),
      (parts: string[]) => parts.map((part, index) => (index === 0 ? part : capital(part))).join(''),
      (parts: string[]) => parts.map(capital).join(''),
    ];
    const secretKey = fc
      .tuple(fc.constantFrom(...words), fc.constantFrom(...spellings), fc.constantFrom([], ['user'], ['x']))
      .map(([parts, spell, prefix]) => spell([...prefix, ...parts]));
    const scheme = fc
      .constantFrom('Basic', 'Bearer', 'Token', 'Digest', 'ApiKey', 'Api-Key', 'JWT', 'Negotiate', 'NTLM', 'DPoP')
      .chain((name) => fc.constantFrom(name, name.toLowerCase(), name.toUpperCase()));
    const forms = (key: string, schemeName: string, value: string): unknown[] => [
      { [key]: value },
      { nested: [{ [key]: value }] },
      { headers: [[key, value]] },
      { raw: ['Accept', '*/*', key, value] },
      { note: `${schemeName} ${value}` },
      { note: `Authorization: ${schemeName} ${value} sent` },
      { body: JSON.stringify({ email: 'a@b', [key]: value, n: 1 }) },
      { body: JSON.stringify({ data: { [key]: value } }, null, 2) },
      { note: `${key}=${value}` },
      { note: `${key}: ${value}` },
      { url: `https://panel.example.com/cb?a=1&${key}=${value}&b=2` },
      { url: `https://panel.example.com/cb#${key}=${value}` },
    ];
    const leaks = (line: string, value: string) =>
      line.includes(value) || line.includes(value.slice(0, 8)) || line.includes(value.slice(-8));
    fc.assert(
      fc.property(secretKey, scheme, secret, (key, schemeName, value) => {
        for (const fields of forms(key, schemeName, value)) {
          const line = formatEntry(new Date(0), 'info', 'ipc.call', fields as Record<string, unknown>);
          assert.ok(!leaks(line, value), line);
        }
      }),
    );
    fc.assert(
      fc.property(password, (value) => {
        const line = formatEntry(new Date(0), 'info', 'fetch', { url: `https://op:${value}@panel.example.com/api?x=1` });
        assert.ok(!leaks(line, value), line);
        assert.match(line, /panel\.example\.com\/api\?x=1/);
      }),
    );
  });

  test('silentLog takes every call and does nothing: no output, no field read, and nobody can swap its methods', () => {
    const written: string[] = [];
    // Whatever a log method printed goes through these two streams, console.log included.
    const restores = [process.stdout, process.stderr].map((stream) => {
      const write = stream.write;
      stream.write = ((chunk: string | Uint8Array) => written.push(String(chunk)) > 0) as typeof stream.write;
      return () => {
        stream.write = write;
      };
    });
    // A field that throws when read: a log that looks at its fields at all fails here.
    const hostile = Object.defineProperty({}, 'boom', {
      enumerable: true,
      get: () => {
        throw new Error(TOKEN);
      },
    });
    try {
      for (const level of ['info', 'warn', 'error'] as const) {
        assert.equal(silentLog[level]('x', { hostile, token: TOKEN, error: new Error(TOKEN) }), undefined, level);
        assert.equal(silentLog[level]('x'), undefined, level);
      }
    } finally {
      for (const restore of restores) restore();
    }
    assert.deepEqual(written, []);
    assert.ok(Object.isFrozen(silentLog), 'a shared default that any module could overwrite');
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

  test('writes one JSON object per line: time, level, event, then the redacted fields', async () => {
    const log = createFileLog({ dir: join(dir.path, 'logs'), now: fixedNow });
    log.info('ipc.call', { method: 'logIn', ms: 3, outcome: 'ok' });
    log.warn('odd', { password: 'hunter2', time: 'forged' });
    log.error('bug', { error: new Error(`boom ${TOKEN}`) });
    await log.flush();
    const text = readFileSync(join(dir.path, 'logs', 'paneldeck.log'), 'utf8');
    assert.ok(!text.includes('hunter2') && !text.includes(TOKEN), text);
    assert.equal(
      text.split('\n').at(0),
      '{"time":"2025-01-02T03:04:05.678Z","level":"info","event":"ipc.call","method":"logIn","ms":3,"outcome":"ok"}',
    );
    const [, warn, error] = linesOf('logs/paneldeck.log');
    assert.deepEqual(warn, { time: '2025-01-02T03:04:05.678Z', level: 'warn', event: 'odd', password: REDACTED, 'field.time': 'forged' });
    assert.equal(error?.level, 'error');
    assert.equal((error?.error as { type: string } | undefined)?.type, 'Error');
  });

  test('rotates before a write would pass maxBytes, keeping at most maxFiles files', async () => {
    const log = createFileLog({ dir: dir.path, maxBytes: 400, maxFiles: 3, now: fixedNow });
    for (let index = 0; index < 40; index++) log.info('entry', { index, padding: 'p'.repeat(40) });
    await log.flush();
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

  test('continues an existing file and counts its size, and maxFiles 1 keeps one file', async () => {
    writeFileSync(join(dir.path, 'app.log'), `${'z'.repeat(290)}\n`);
    const log = createFileLog({ dir: dir.path, fileName: 'app.log', maxBytes: 300, maxFiles: 1, now: fixedNow });
    log.info('next');
    await log.flush();
    assert.deepEqual(readdirSync(dir.path), ['app.log']);
    assert.deepEqual(
      linesOf('app.log').map((line) => line.event),
      ['next'],
    );
  });

  test('never throws: a folder that is a file, a folder removed between writes, a throwing clock', async () => {
    const file = join(dir.path, 'not-a-folder');
    writeFileSync(file, 'x');
    const broken = createFileLog({ dir: join(file, 'logs') });
    assert.doesNotThrow(() => broken.error('lost', { error: new Error('x') }));
    await assert.doesNotReject(broken.flush());
    const fileForFolder = createFileLog({ dir: file });
    assert.doesNotThrow(() => fileForFolder.info('lost'));
    await assert.doesNotReject(fileForFolder.flush());

    const logDir = join(dir.path, 'gone');
    const log = createFileLog({ dir: logDir });
    log.info('one');
    await log.flush();
    rmSync(logDir, { recursive: true });
    assert.doesNotThrow(() => log.info('two'));
    await log.flush();
    // The folder is made again and writing goes on.
    assert.deepEqual(
      linesOf('gone/paneldeck.log').map((line) => line.event),
      ['two'],
    );

    const clockless = createFileLog({
      dir: dir.path,
      now: () => {
        throw new Error('no clock');
      },
    });
    assert.doesNotThrow(() => clockless.info('x'));
  });
});
