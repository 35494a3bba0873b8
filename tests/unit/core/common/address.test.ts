import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import {
  canonicalBaseUrlForTests as quick,
  loginUrl,
  normaliseAddress,
  normaliseAddressUncachedForTests,
  normaliseLoginPath,
} from '../../../../electron/core/common/address.ts';
import { PanelError } from '../../../../shared/contract/errors.ts';
import { rejectsWith } from '../../../support/helpers.ts';

const accepted: [input: string, baseUrl: string, display: string][] = [
  ['panel.example.com', 'https://panel.example.com/api', 'panel.example.com'],
  ['https://panel.example.com', 'https://panel.example.com/api', 'panel.example.com'],
  ['https://panel.example.com/', 'https://panel.example.com/api', 'panel.example.com'],
  ['https://panel.example.com/api', 'https://panel.example.com/api', 'panel.example.com'],
  ['https://panel.example.com/api/', 'https://panel.example.com/api', 'panel.example.com'],
  ['panel.example.com/api', 'https://panel.example.com/api', 'panel.example.com'],
  ['HTTPS://PANEL.EXAMPLE.COM/API', 'https://panel.example.com/api', 'panel.example.com'],
  ['  panel.example.com\n', 'https://panel.example.com/api', 'panel.example.com'],
  ['panel.example.com:8443', 'https://panel.example.com:8443/api', 'panel.example.com:8443'],
  ['https://panel.example.com:443', 'https://panel.example.com/api', 'panel.example.com'],
  ['bücher.example', 'https://xn--bcher-kva.example/api', 'bücher.example'],
  ['https://xn--bcher-kva.example/api', 'https://xn--bcher-kva.example/api', 'bücher.example'],
  ['пример.рф:8443', 'https://xn--e1afmkfd.xn--p1ai:8443/api', 'пример.рф:8443'],
  ['203.0.113.7', 'https://203.0.113.7/api', '203.0.113.7'],
  ['203.0.113.7:2083', 'https://203.0.113.7:2083/api', '203.0.113.7:2083'],
  ['2001:db8::1', 'https://[2001:db8::1]/api', '[2001:db8::1]'],
  ['[2001:db8::1]:8443', 'https://[2001:db8::1]:8443/api', '[2001:db8::1]:8443'],
  ['http://127.0.0.1:4780', 'http://127.0.0.1:4780/api', 'http://127.0.0.1:4780'],
  ['http://127.8.9.10', 'http://127.8.9.10/api', 'http://127.8.9.10'],
  ['http://localhost:3000/api/', 'http://localhost:3000/api', 'http://localhost:3000'],
  ['http://[::1]:3000', 'http://[::1]:3000/api', 'http://[::1]:3000'],
  ['panel.example.com.', 'https://panel.example.com/api', 'panel.example.com'],
];

for (const [input, baseUrl, display] of accepted) {
  test(`address ${JSON.stringify(input)} becomes ${baseUrl}`, () => {
    assert.deepEqual(normaliseAddress(input), { baseUrl, display });
  });
}

const refused: [input: string, message: RegExp][] = [
  ['', /Enter the panel address/],
  ['   ', /Enter the panel address/],
  ['panel example.com', /spaces/],
  ['panel.example.com\tx', /spaces/],
  ['user@panel.example.com', /user name/],
  ['https://user:secret@panel.example.com', /user name/],
  ['https://panel.example.com/api?x=1', /query/],
  ['https://panel.example.com?', /query/],
  ['https://panel.example.com/#top', /fragment/],
  ['https://panel.example.com/admin', /Remove the path "\/admin"/],
  ['https://panel.example.com/api/v1', /Remove the path/],
  ['ftp://panel.example.com', /https:\/\/ \(not ftp:\/\/\)/],
  ['javascript:alert(1)', /not javascript:/],
  ['http://panel.example.com', /Use https:\/\//],
  ['http://10.0.0.5', /Use https:\/\//],
  ['panel..example.com', /empty part/],
  ['-panel.example.com', /not a valid domain/],
  ['https://panel.example.com:99999', /not a valid address/],
  ['https://panel.example.com\\evil', /backslashes/],
  ['https://', /not a valid address|no host/],
];

for (const [input, message] of refused) {
  test(`address ${JSON.stringify(input)} is refused with a precise message`, async () => {
    await rejectsWith(
      Promise.resolve().then(() => normaliseAddress(input)),
      'INVALID_INPUT',
      message,
    );
  });
}

/** What the normalised form must look like, whatever came in. */
function assertWellFormed(result: { baseUrl: string; display: string }): void {
  const url = new URL(result.baseUrl);
  assert.equal(url.pathname, '/api');
  assert.equal(url.search + url.hash + url.username + url.password, '');
  if (url.protocol === 'http:') assert.match(url.hostname, /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/);
  else assert.equal(url.protocol, 'https:');
  assert.equal(result.baseUrl, `${url.origin}/api`);
}

test('property: any string either normalises to a well-formed base URL or fails with INVALID_INPUT', () => {
  const noisy = fc.oneof(
    fc.string({ maxLength: 80 }),
    fc.string({ unit: 'grapheme', maxLength: 40 }),
    fc.webUrl({
      withQueryParameters: true,
      withFragments: true,
      authoritySettings: { withUserInfo: true, withPort: true, withIPv4: true, withIPv6: true },
    }),
    fc.constantFrom('http://', 'https://', '[', ']', ':', '@', '/api', '..', '%00', 'xn--', '\u0000', '\u202e'),
  );
  fc.assert(
    fc.property(
      fc.array(noisy, { minLength: 1, maxLength: 4 }).map((parts) => parts.join('')),
      (input) => {
        try {
          assertWellFormed(normaliseAddress(input));
        } catch (error) {
          if (!(error instanceof PanelError) || error.code !== 'INVALID_INPUT') throw error;
          assert.ok(error.message.length > 0 && error.message.length < 300);
        }
      },
    ),
    { numRuns: 3000 },
  );
});

test('property: real domains, IPs and ports are accepted in every pasted form, and normalising is idempotent', () => {
  const host = fc.oneof(
    fc.domain(),
    fc.ipV4(),
    fc.ipV6().map((ip) => `[${ip}]`),
  );
  const form = fc.record({
    host,
    port: fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined }),
    scheme: fc.constantFrom('', 'https://', 'HTTPS://'),
    suffix: fc.constantFrom('', '/', '/api', '/api/', '/API'),
    upper: fc.boolean(),
  });
  fc.assert(
    fc.property(form, ({ host: h, port, scheme, suffix, upper }) => {
      const hostText = upper ? h.toUpperCase() : h;
      const input = `${scheme}${hostText}${port === undefined ? '' : `:${port}`}${suffix}`;
      const result = normaliseAddress(input);
      assertWellFormed(result);
      assert.deepEqual(normaliseAddress(result.baseUrl), result);
      assert.deepEqual(normaliseAddress(result.display), result);
    }),
    { numRuns: 2000 },
  );
});

test('login paths: defaults, leading slash added, unsafe forms refused', async () => {
  assert.equal(normaliseLoginPath(null), '/login');
  assert.equal(normaliseLoginPath('  '), '/login');
  assert.equal(normaliseLoginPath('auth/login'), '/auth/login');
  assert.equal(normaliseLoginPath('/v1/users.login'), '/v1/users.login');
  for (const bad of ['/login?x=1', '//evil.example/login', '/a/../login', '/log in', '/login#x', '/lögin']) {
    await rejectsWith(
      Promise.resolve().then(() => normaliseLoginPath(bad)),
      'INVALID_INPUT',
    );
  }
});

test('login paths: encoded dot segments, encoded slashes and paths that leave /api are refused', async () => {
  const escaping = [
    '/%2e%2e/%2e%2e/other-app/collect',
    '/%2E%2E/other-app/collect',
    '/.%2e/other-app/collect',
    '/%2e./other-app/collect',
    '/auth/%2e/login',
    '%2e%2e/collect',
    '/%252e%252e/other-app/collect',
    '/..;/other-app/collect',
    '/%2f../other-app/collect',
    '/%2F%2Fevil.example/collect',
    '/auth%5c..%5ccollect',
    '/..',
  ];
  for (const bad of escaping) {
    const error = await rejectsWith(
      Promise.resolve().then(() => normaliseLoginPath(bad)),
      'INVALID_INPUT',
    );
    assert.match(error.message, /login path cannot contain (("\.") or "\.\." segments|encoded slashes)/, bad);
  }
  // Still accepted: dots inside a segment, and escapes that are neither dots nor slashes.
  assert.equal(normaliseLoginPath('/v1/users.login'), '/v1/users.login');
  assert.equal(normaliseLoginPath('/auth/..hidden'), '/auth/..hidden');
  assert.equal(normaliseLoginPath('/auth/log%20in'), '/auth/log%20in');
});

test('loginUrl: the URL a log in goes to, refused unless it resolves under <origin>/api/', async () => {
  assert.equal(loginUrl('https://panel.example.com/api', '/login'), 'https://panel.example.com/api/login');
  assert.equal(loginUrl('http://127.0.0.1:8080/api', '/v1/users.login'), 'http://127.0.0.1:8080/api/v1/users.login');
  for (const bad of [
    '/%2e%2e/%2e%2e/other-app/collect',
    '/../other-app/collect',
    '//evil.example/collect',
    'login',
    '/a/%2e%2e/%2e%2e/b',
  ]) {
    const error = await rejectsWith(
      Promise.resolve().then(() => loginUrl('https://panel.example.com/api', bad)),
      'INVALID_INPUT',
    );
    assert.match(error.message, /login path saved for this panel is refused, so your email and password were not sent/);
  }
});

test('the quick path for stored base URLs agrees with the full parse, for every address either accepts', () => {
  const full = (input: string, allowPlainHttp: boolean) => {
    try {
      return normaliseAddressUncachedForTests(input, allowPlainHttp);
    } catch {
      return null;
    }
  };
  const label = fc.stringMatching(/^[a-z0-9_][a-z0-9_-]{0,10}[a-z0-9_]?$/);
  const host = fc.oneof(
    fc.array(label, { minLength: 1, maxLength: 4 }).map((labels) => labels.join('.')),
    fc.tuple(fc.nat(300), fc.nat(300), fc.nat(300), fc.nat(300)).map((octets) => octets.join('.')),
    fc.constantFrom('localhost', '127.0.0.1', '127.1', '0x7f.0.0.1', 'xn--bcher-kva.example', 'a..b', '-a.com', 'a.123', '256.1.1.1'),
  );
  const candidate = fc
    .tuple(fc.constantFrom('http', 'https'), host, fc.option(fc.oneof(fc.nat(70000), fc.constantFrom(80, 443, 0)), { nil: undefined }))
    .map(([scheme, name, port]) => `${scheme}://${name}${port === undefined ? '' : `:${port}`}/api`);
  fc.assert(
    fc.property(fc.oneof(candidate, fc.string()), fc.boolean(), (input, allowPlainHttp) => {
      const fast = quick(input, allowPlainHttp);
      if (fast === null) return;
      assert.deepEqual(fast, full(input, allowPlainHttp), input);
    }),
    { numRuns: 5000 },
  );
  // And the quick path is taken for what the app stores most: plain domains and loopback addresses.
  for (const input of [
    'https://panel.example.com/api',
    'https://panel.example.com:8443/api',
    'http://127.0.0.1:4780/api',
    'https://10.0.0.5/api',
  ]) {
    assert.deepEqual(quick(input, false), full(input, false), input);
    assert.notEqual(quick(input, false), null, input);
  }
});

test('plain http:// for another computer only by choice; loopback as before', () => {
  assert.throws(() => normaliseAddress('http://203.0.113.7:3000'), /Allow unencrypted HTTP/);
  assert.deepEqual(
    { ...normaliseAddress('http://203.0.113.7:3000', { allowPlainHttp: true }) },
    { baseUrl: 'http://203.0.113.7:3000/api', display: 'http://203.0.113.7:3000' },
  );
  assert.deepEqual(
    { ...normaliseAddress('http://panel.internal', { allowPlainHttp: true }) },
    { baseUrl: 'http://panel.internal/api', display: 'http://panel.internal' },
  );
  // Remembered per choice: an address once allowed is not allowed for a panel that did not choose it.
  assert.throws(() => normaliseAddress('http://203.0.113.7:3000/api'), /Allow unencrypted HTTP/);
  assert.equal(normaliseAddress('http://127.0.0.1:4780').baseUrl, 'http://127.0.0.1:4780/api');
});
