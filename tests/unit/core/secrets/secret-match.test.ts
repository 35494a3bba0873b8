import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { containsSecret, hasOpaqueRun, percentDecode, secretMatcher } from '../../../../electron/core/secrets/secret-match.ts';
import { hideSecrets } from '../../../../electron/core/secrets/session-redaction.ts';

/** Each encoding a panel may echo a secret in, applied to the secret inside its surroundings. */
const encodings: Record<string, (secret: string, before: string, after: string) => string> = {
  plain: (secret, before, after) => `${before}${secret}${after}`,
  'URL-encoded': (secret, before, after) => `${before}${encodeURIComponent(secret)}${after}`,
  'URL-encoded, all of it': (secret, before, after) => encodeURIComponent(`${before}${secret}${after}`),
  'double URL-encoded': (secret, before, after) => `${before}${encodeURIComponent(encodeURIComponent(secret))}${after}`,
  'triple URL-encoded': (secret, before, after) => encodeURIComponent(encodeURIComponent(encodeURIComponent(`${before}${secret}${after}`))),
  'URL-encoded, lower-case hex': (secret, before, after) =>
    `${before}${encodeURIComponent(secret).replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase())}${after}`,
  base64: (secret, before, after) => Buffer.from(`${before}${secret}${after}`).toString('base64'),
  'base64, URL-encoded': (secret, before, after) => encodeURIComponent(Buffer.from(`${before}${secret}${after}`).toString('base64')),
  base64url: (secret, before, after) => Buffer.from(`${before}${secret}${after}`).toString('base64url'),
  'base64 wrapped at 76': (secret, before, after) =>
    Buffer.from(`${before}${secret}${after}`).toString('base64').replace(/.{76}/g, '$&\r\n'),
  'Basic base64(before:secret)': (secret, before, after) => `Basic ${Buffer.from(`${before}:${secret}`).toString('base64')}${after}`,
  'base64 of the URL-encoded secret': (secret, before, after) =>
    Buffer.from(`${before}${encodeURIComponent(secret)}${after}`).toString('base64'),
  hex: (secret, before, after) => `${before}${Buffer.from(secret).toString('hex')}${after}`,
};

/** Case changes only for ASCII: other scripts have letters whose cases differ in length. */
const caseEncodings: Record<string, (secret: string, before: string, after: string) => string> = {
  'upper case': (secret, before, after) => `${before}${secret.toUpperCase()}${after}`,
  'lower case': (secret, before, after) => `${before}${secret.toLowerCase()}${after}`,
  'upper case, URL-encoded': (secret, before, after) => encodeURIComponent(`${before}${secret.toUpperCase()}${after}`),
};

const asciiSecret = fc.string({ minLength: 4, maxLength: 64 });
const anySecret = fc.oneof(asciiSecret, fc.string({ unit: 'grapheme', minLength: 4, maxLength: 32 }));
const surroundings = fc.string({ unit: 'grapheme', maxLength: 40 });
// A stray "%" (or "%" and a hex digit) right before an escape turns it into another escape, for
// any decoder: "%" + "00%20" reads as "%00" + "%20". No encoder writes that.
const before = surroundings.map((text) => text.replace(/%[0-9A-Fa-f]?$/, ''));

test('property: the secret is found in each encoding, wherever it sits in the text', () => {
  for (const [name, encode] of Object.entries(encodings)) {
    fc.assert(
      fc.property(anySecret, before, surroundings, (secret, prefix, after) => {
        assert.ok(containsSecret(encode(secret, prefix, after), ['', secret]), `${name}: ${JSON.stringify({ secret, prefix, after })}`);
      }),
      { numRuns: 300 },
    );
  }
  for (const [name, encode] of Object.entries(caseEncodings)) {
    fc.assert(
      fc.property(asciiSecret, before, surroundings, (secret, prefix, after) => {
        assert.ok(containsSecret(encode(secret, prefix, after), [secret]), `${name}: ${JSON.stringify({ secret, prefix, after })}`);
      }),
      { numRuns: 300 },
    );
  }
});

test('property: text made without the secret is not flagged, so sessions stay intact', () => {
  // A realistic secret, and JSON whose strings hold none of its characters in any case.
  const secretAndValue = fc
    .oneof(fc.constant(16), fc.constant(32), fc.constant(48))
    .chain((bytes) => fc.uint8Array({ minLength: bytes, maxLength: bytes }))
    .chain((bytes) => {
      const secret = Buffer.from(bytes).toString(bytes.length === 32 ? 'base64url' : 'hex');
      const banned = new Set([...secret.toLowerCase(), ...secret.toUpperCase()]);
      const clean = (text: string) => [...text].filter((character) => !banned.has(character)).join('');
      const value = fc
        .jsonValue({ maxDepth: 3 })
        .map(
          (json) => JSON.parse(JSON.stringify(json, (_key, item: unknown) => (typeof item === 'string' ? clean(item) : item))) as unknown,
        );
      return fc.tuple(fc.constant(secret), value);
    });
  fc.assert(
    fc.property(secretAndValue, ([secret, value]) => {
      assert.deepEqual(hideSecrets(value, [secret]), value);
      assert.equal(containsSecret(JSON.stringify(value), [secret]), false);
    }),
    { numRuns: 1000 },
  );
  // Ordinary text is not taken for an encoding of a short secret either.
  const holds = secretMatcher(['abcd', 'p4ss']);
  for (const text of [
    'The email field is required.',
    'https://panel.example.com/api/v1/users?page=2',
    'ZGVtbyBzZXNzaW9u',
    '0123456789 fedcb',
  ]) {
    assert.equal(holds(text), false, text);
  }
});

test('empty secrets match nothing; short ones only as they are, in any case', () => {
  assert.equal(containsSecret('anything at all', ['']), false);
  assert.equal(containsSecret('anything at all', []), false);
  assert.equal(containsSecret('x-AbC-y', ['aBc']), true);
  assert.equal(containsSecret(Buffer.from('abc').toString('base64'), ['abc']), false);
});

test('percent-decoding is lenient, one level at a time', () => {
  assert.equal(percentDecode('no escapes here'), null);
  assert.equal(percentDecode('42%7Cp'), '42|p');
  assert.equal(percentDecode('42%257Cp'), '42%7Cp');
  assert.equal(percentDecode('42%7cp %zz %'), '42|p %zz %');
  assert.equal(percentDecode('%C3%A9 and %E9 and %F0%9F%98%80'), 'é and \uFFFD and 😀');
  // A secret that itself holds an escape is found however often it was encoded.
  for (const text of ['a%41bcd', encodeURIComponent('a%41bcd'), encodeURIComponent(encodeURIComponent('a%41bcd'))]) {
    assert.ok(containsSecret(`x ${text} y`, ['a%41bcd']), text);
  }
});

test('opaque runs: long base64-, hex- or JWT-like text counts, words and paths do not', () => {
  const opaque = [
    'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9',
    'a3f09c2e7b1d4a6f8e0c2b4d6f8a0c2e',
    'abc%7Cdef%7Cghi%7Cjkl%7Cmno',
    'key: QUJDREVGR0hJSktMTU5PUFFSU1RVVldY',
    'RkZHSUpLTE1OT1BRUlNUVVZXWFla',
  ];
  for (const text of opaque) assert.ok(hasOpaqueRun(text), text);
  const words = [
    'The email field is required.',
    '/api/auth/login-with-password-reset',
    'internationalization_settings',
    'refreshTokenExpiresAtSomeTime',
    `0-${'k'.repeat(1000)}`,
    'Token 42 is short',
  ];
  for (const text of words) assert.equal(hasOpaqueRun(text), false, text);
  assert.ok(hasOpaqueRun('x7Yq2LmN9pQr4StUv', 16));
  assert.equal(hasOpaqueRun('x7Yq2LmN9pQr4StUv'), false);
});

test('a secret with a lone surrogate (a password typed or fuzzed so) is still matched as it is, never a throw', () => {
  const password = '\ud800\u0000𐀀';
  const matches = secretMatcher([password]);
  assert.equal(matches(`refused ${password} here`), true);
  assert.equal(matches('refused here'), false);
});
