import assert from 'node:assert/strict';
import { Buffer } from 'node:buffer';
import { test } from 'node:test';
import fc from 'fast-check';
import { sessionExpiry } from '../../../../electron/core/easypanel/session-expiry.ts';

const NOW = new Date('2026-05-01T12:00:00.000Z');
const END = '2026-11-24T10:00:00.000Z';
const END_SECONDS = Date.parse(END) / 1000;
const TOKEN_END = '2026-06-01T00:00:00.000Z';

const SPELLINGS = [
  'expiresAt',
  'expires_at',
  'expires',
  'expiry',
  'expiration',
  'expirationTime',
  'exp',
  'validUntil',
  'valid_until',
  'sessionExpiresAt',
  'EXPIRES-AT',
  'Expires_At',
  'expiration_time',
  'valid-until',
  'session_expires_at',
  'expireAt',
  'expiresOn',
  'expiryTime',
  'expirationDate',
  'sessionExpiry',
];
const ENVELOPES: readonly (readonly string[])[] = [
  [],
  ['session'],
  ['data'],
  ['result'],
  ['result', 'data'],
  ['result', 'data', 'json'],
  ['data', 'session'],
];

function inEnvelope(path: readonly string[], record: Record<string, unknown>): unknown {
  return path.reduceRight<unknown>((inner, key) => ({ [key]: inner }), record);
}

function base64url(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64url');
}

function jwt(claims: unknown): string {
  return `${base64url('{"alg":"HS256","typ":"JWT"}')}.${base64url(JSON.stringify(claims))}.c2lnbmF0dXJl`;
}

const TOKEN = jwt({ sub: 'op', exp: Date.parse(TOKEN_END) / 1000 });

test('reads the Easypanel 2.33 session answer', () => {
  const answer = { id: 's1', createdAt: '2026-04-01T00:00:00.000Z', userId: 'u1', expiresAt: END, demoMode: false };
  assert.equal(sessionExpiry(answer, null, NOW), END);
});

test('accepts every key spelling in every envelope', () => {
  for (const key of SPELLINGS) {
    for (const path of ENVELOPES) {
      assert.equal(sessionExpiry(inEnvelope(path, { id: 'x', [key]: END }), null, NOW), END, `${path.join('.')}.${key}`);
    }
  }
});

test('does not look deeper than the envelopes, nor under other keys', () => {
  for (const answer of [
    { data: { data: { expiresAt: END } } },
    { session: { session: { expiresAt: END } } },
    { result: { json: { expiresAt: END } } },
    { meta: { expiresAt: END } },
    [{ expiresAt: END }],
    { data: [{ expiresAt: END }] },
    { createdAt: END, expiresIn: 3600 },
  ]) {
    assert.equal(sessionExpiry(answer, null, NOW), null, JSON.stringify(answer));
  }
});

test('tells epoch seconds from milliseconds, also in numeric strings', () => {
  assert.equal(sessionExpiry({ expiresAt: END_SECONDS }, null, NOW), END);
  assert.equal(sessionExpiry({ expiresAt: END_SECONDS * 1000 }, null, NOW), END);
  assert.equal(sessionExpiry({ expiresAt: END_SECONDS + 0.25 }, null, NOW), '2026-11-24T10:00:00.250Z');
  assert.equal(sessionExpiry({ expiresAt: String(END_SECONDS) }, null, NOW), END);
  assert.equal(sessionExpiry({ expiresAt: ` ${END_SECONDS * 1000} ` }, null, NOW), END);
});

test('reads ISO 8601 with and without milliseconds, with Z or an offset, and RFC 1123', () => {
  const cases: Record<string, string> = {
    '2026-11-24T10:00:00Z': END,
    '2026-11-24T10:00:00.000Z': END,
    '2026-11-24T10:00:00.123456Z': '2026-11-24T10:00:00.123Z',
    '2026-11-24T12:00:00+02:00': END,
    '2026-11-24T04:30:00.000-05:30': END,
    '2026-11-24T11:00:00+0100': END,
    '2026-11-24 10:00:00Z': END,
    '2026-11-24T10:00Z': END,
    'Tue, 24 Nov 2026 10:00:00 GMT': END,
    '24 Nov 2026 10:00:00 GMT': END,
    'Tue, 24 Nov 2026 11:00:00 +0100': END,
  };
  for (const [text, expected] of Object.entries(cases)) {
    assert.equal(sessionExpiry({ expiresAt: text }, null, NOW), expected, text);
  }
});

test('rejects absurd, ambiguous and non-date values', () => {
  const hundredAndOneYears = NOW.getTime() + 101 * 365.25 * 86_400_000;
  for (const value of [
    Number.NaN,
    Infinity,
    -Infinity,
    0,
    -1,
    946_684_799,
    '1999-12-31T23:59:59Z',
    hundredAndOneYears,
    new Date(hundredAndOneYears).toISOString(),
    1e11,
    true,
    false,
    null,
    {},
    [END],
    { iso: END },
    '',
    ' ',
    'soon',
    'never',
    '2026-02-30T00:00:00Z',
    '2026-11-24T24:00:00Z',
    '2026-11-24T10:00:00+24:00',
    '2026-11-24T10:00:00',
    '2026-11-24',
    'Tue, 24 Foo 2026 10:00:00 GMT',
    '0x6A0B5A40',
    '1e10',
    `${END}x`,
    `${'1'.repeat(80)}`,
    new Date(END),
    10n,
  ]) {
    assert.equal(sessionExpiry({ expiresAt: value }, null, NOW), null, String(value));
  }
});

test('an unusable value under one key does not hide a usable one elsewhere', () => {
  assert.equal(sessionExpiry({ expiresAt: 'soon', exp: END_SECONDS }, null, NOW), END);
  assert.equal(sessionExpiry({ expiresAt: 0, data: { expiresAt: END } }, null, NOW), END);
});

test('uses the JWT exp claim when the session says nothing, and not when it does', () => {
  for (const silent of [null, undefined, {}, { id: 's1', expiresAt: null }, 'text', [END]]) {
    assert.equal(sessionExpiry(silent, TOKEN, NOW), TOKEN_END, JSON.stringify(silent));
  }
  assert.equal(sessionExpiry({ expiresAt: END }, TOKEN, NOW), END);
  assert.equal(sessionExpiry({ result: { data: { json: { exp: END_SECONDS } } } }, TOKEN, NOW), END);
  const unsigned = TOKEN.slice(0, TOKEN.lastIndexOf('.') + 1);
  assert.equal(sessionExpiry(null, unsigned, NOW), TOKEN_END);
});

test('a malformed token, or one without a usable exp, gives null', () => {
  const [header = '', payload = ''] = TOKEN.split('.');
  const bad = [
    null,
    '',
    'opaque-api-token',
    `${header}.${payload}`,
    `${TOKEN}.extra`,
    `${header}..sig`,
    `${header}.${payload}!.sig`,
    `${header}.${base64url('not json')}.sig`,
    `${header}.${base64url('[1,2]')}.sig`,
    `${header}.${base64url('{"exp":')}.sig`,
    `${header}.%%%.sig`,
    jwt({ exp: String(END_SECONDS) }),
    jwt({ exp: END_SECONDS * 1000 }),
    jwt({ exp: -1 }),
    jwt({ sub: 'op' }),
    jwt(42),
    jwt(null),
    jwt({ nested: { exp: END_SECONDS } }),
    `${header}.${base64url(`{"__proto__":{"exp":${END_SECONDS}}}`)}.sig`,
    jwt({ exp: END_SECONDS, padding: 'x'.repeat(16 * 1024) }),
  ];
  for (const token of bad) {
    assert.equal(sessionExpiry({}, token, NOW), null, String(token).slice(0, 60));
  }
});

test('"__proto__" and "constructor" keys, inherited and accessor properties are harmless', () => {
  const parsed = JSON.parse(`{"__proto__": {"expiresAt": "${END}"}, "constructor": {"expiresAt": "${END}"}}`) as unknown;
  assert.equal(sessionExpiry(parsed, null, NOW), null);
  assert.equal(sessionExpiry(JSON.parse(`{"__proto__": "${END}", "data": {"__proto__": 1}}`), null, NOW), null);
  assert.equal(({} as Record<string, unknown>).expiresAt, undefined, 'nothing leaked into Object.prototype');
  assert.equal(sessionExpiry(Object.create({ expiresAt: END }), null, NOW), null, 'inherited');
  assert.equal(sessionExpiry({ data: Object.create({ session: { expiresAt: END } }) }, null, NOW), null);
  const withGetter = {
    get expiresAt(): string {
      throw new Error('a getter must not run');
    },
  };
  assert.equal(sessionExpiry(withGetter, TOKEN, NOW), TOKEN_END);
});

test('a 100,000-level answer is answered without walking past the envelopes', () => {
  const levels = 100_000;
  let deepestTouched = -1;
  let answer: object = { expiresAt: END };
  for (let level = levels - 1; level >= 0; level--) {
    /** Notes how deep a read went, then reads as usual. */
    const touched = <T>(read: () => T): T => {
      deepestTouched = Math.max(deepestTouched, level);
      return read();
    };
    answer = new Proxy(
      { session: answer, data: answer, result: answer, json: answer },
      {
        ownKeys: (target) => touched(() => Reflect.ownKeys(target)),
        getOwnPropertyDescriptor: (target, key) => touched(() => Reflect.getOwnPropertyDescriptor(target, key)),
        get: (target, key, receiver) => touched(() => Reflect.get(target, key, receiver)),
        has: (target, key) => touched(() => Reflect.has(target, key)),
      },
    );
  }
  assert.equal(sessionExpiry(answer, null, NOW), null);
  assert.ok(deepestTouched >= 0 && deepestTouched <= 3, `touched level ${deepestTouched}`);
});

test('an invalid or missing "now" gives null, not a throw', () => {
  assert.equal(sessionExpiry({ expiresAt: END }, TOKEN, new Date(Number.NaN)), null);
  assert.equal(sessionExpiry({ expiresAt: END }, TOKEN, null as unknown as Date), null);
});

test('property: never throws, and answers null or an ISO string', () => {
  const anything = fc.anything({
    withBigInt: true,
    withBoxedValues: true,
    withDate: true,
    withMap: true,
    withSet: true,
    withNullPrototype: true,
    withObjectString: true,
    withTypedArray: true,
    withSparseArray: true,
  });
  const tokens = fc.oneof(
    fc.string(),
    fc.constant(null),
    fc.jsonValue().map(jwt),
    fc.tuple(fc.string(), fc.string(), fc.string()).map((parts) => parts.map(base64url).join('.')),
  );
  const isoOrNull = (result: string | null): boolean => result === null || new Date(result).toISOString() === result;
  fc.assert(
    fc.property(anything, tokens, fc.date(), (session, token, now) => {
      assert.ok(isoOrNull(sessionExpiry(session, token, now)));
    }),
  );
  fc.assert(
    fc.property(fc.jsonValue(), fc.string(), (session, token) => {
      assert.ok(isoOrNull(sessionExpiry(session, token, NOW)));
    }),
  );
});

test('property: a future date under any accepted key and envelope comes back, and beats the token', () => {
  const encodings = ['iso', 'iso-seconds', 'iso-offset', 'rfc1123', 'seconds', 'millis', 'seconds-text'] as const;
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: 99 * 365 }),
      fc.integer({ min: 1, max: 86_400_000 }),
      fc.constantFrom(...SPELLINGS),
      fc.constantFrom(...ENVELOPES),
      fc.constantFrom(...encodings),
      fc.integer({ min: -(23 * 60 + 59), max: 23 * 60 + 59 }),
      fc.option(fc.nat()),
      (days, millis, key, path, encoding, offset, tokenExp) => {
        const endMs = NOW.getTime() + days * 86_400_000 + millis;
        const wholeSeconds = Math.floor(endMs / 1000);
        const shifted = new Date(endMs + offset * 60_000).toISOString().slice(0, 23);
        const sign = offset < 0 ? '-' : '+';
        const zone = `${sign}${String(Math.trunc(Math.abs(offset) / 60)).padStart(2, '0')}:${String(Math.abs(offset) % 60).padStart(2, '0')}`;
        const valueAndExpectedMs: Record<(typeof encodings)[number], readonly [unknown, number]> = {
          iso: [new Date(endMs).toISOString(), endMs],
          'iso-seconds': [new Date(wholeSeconds * 1000).toISOString().replace('.000Z', 'Z'), wholeSeconds * 1000],
          'iso-offset': [`${shifted}${zone}`, endMs],
          rfc1123: [new Date(endMs).toUTCString(), wholeSeconds * 1000],
          seconds: [wholeSeconds, wholeSeconds * 1000],
          millis: [endMs, endMs],
          'seconds-text': [String(wholeSeconds), wholeSeconds * 1000],
        };
        const [value, expectedMs] = valueAndExpectedMs[encoding];
        const token = tokenExp === null ? null : jwt({ exp: tokenExp });
        const answer = inEnvelope(path, { id: 's', createdAt: NOW.toISOString(), [key]: value });
        assert.equal(sessionExpiry(answer, token, NOW), new Date(expectedMs).toISOString());
      },
    ),
  );
});
