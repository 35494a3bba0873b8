import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Panel } from '../../../../shared/types.ts';
import { fieldForError } from '../../../../renderer/ui/field-errors.ts';
import { isApiTokenSignIn, signInKind, signedOutNotice } from '../../../../renderer/ui/panel-status.ts';
import { judgePanel } from '../../../../renderer/ui/panel-state.ts';
import { API_TOKEN_KEPT_MESSAGE } from '../../../../shared/contract/errors.ts';
import { knownSessionFields, maskSecrets, toDate } from '../../../../renderer/session/session-fields.ts';
import { isSecretKey, MASKED_VALUE } from '../../../../shared/secret-fields.ts';
import {
  carryView,
  EXPAND_ROW_BUDGET,
  formatCount,
  formatNumber,
  initialView,
  measureJson,
  PAGE_SIZE,
  planOpen,
  utf8Length,
  visibleRows,
  type Branch,
} from '../../../../renderer/ui/json-rows.ts';
import { formatBytes } from '../../../../shared/sizes.ts';
import { suiteCore } from '../../../support/helpers.ts';
import { samplePanel } from '../../../support/panel-fixture.ts';

const basePanel: Panel = samplePanel(0, { name: 'P', address: 'p.example.com', baseUrl: 'https://p.example.com/api' });

test('sign-in kind: signed in, last check failed, expired (server or unreadable token), signed out', () => {
  assert.equal(signInKind({ ...basePanel, signedIn: true, lastCheck: { at: 'x', ok: true } }), 'signed-in');
  assert.equal(
    signInKind({ ...basePanel, signedIn: true, lastCheck: { at: 'x', ok: false, error: { code: 'TIMEOUT', message: 'm' } } }),
    'check-failed',
  );
  const changed = { code: 'CERTIFICATE_CHANGED' as const, message: 'm' };
  // A changed certificate is how an interception looks: Paneldeck does not talk to it, so the panel is unreachable, and says why.
  const intercepted = judgePanel({ ...basePanel, signedIn: true, lastCheck: { at: 'x', ok: false, error: changed } }, undefined);
  assert.deepEqual([intercepted.word, intercepted.reason], ['Unreachable', 'Unreachable: m']);
  assert.equal(signInKind({ ...basePanel, signedOutReason: { code: 'UNAUTHORIZED', message: 'm' } }), 'expired');
  assert.equal(signInKind({ ...basePanel, signedOutReason: { code: 'TOKEN_UNREADABLE', message: 'm' } }), 'expired');
  assert.equal(signInKind({ ...basePanel, signedOutReason: { code: 'NOT_SIGNED_IN', message: 'address changed' } }), 'signed-out');
  assert.equal(signInKind(basePanel), 'signed-out');
});

test('a panel signed out without the operator asking says why; one they logged out of says nothing', () => {
  const reason = (code: Panel['signedOutReason'] & object) => signedOutNotice({ ...basePanel, signedOutReason: code });
  assert.equal(reason({ code: 'UNAUTHORIZED', message: 'm' })?.title, 'Session expired or revoked');
  assert.match(reason({ code: 'ENCRYPTION_UNAVAILABLE', message: 'changed from a to b' })?.title ?? '', /cannot be used on this system/);
  assert.deepEqual(reason({ code: 'NOT_SIGNED_IN', message: 'The address changed.' }), {
    title: 'Signed out',
    detail: 'The address changed.',
  });
  assert.equal(signedOutNotice(basePanel), null);
  assert.equal(signedOutNotice({ ...basePanel, signedIn: true, signedOutReason: { code: 'UNAUTHORIZED', message: 'stale' } }), null);
});

test('known session fields are found at the top, under user, data.user or session.user', () => {
  const expected = { user: 'u1', email: 'a@b.c', name: 'Ann', role: 'admin', expiresAt: new Date('2026-12-01T10:00:00.000Z') };
  const flat = { id: 'u1', email: 'a@b.c', name: 'Ann', role: 'admin', expiresAt: '2026-12-01T10:00:00.000Z' };
  assert.deepEqual(knownSessionFields(flat), expected);
  assert.deepEqual(
    knownSessionFields({ user: { id: 'u1', email: 'a@b.c', name: 'Ann', role: 'admin' }, expires_at: '2026-12-01T10:00:00Z' }),
    expected,
  );
  assert.deepEqual(
    knownSessionFields({
      data: { user: { username: 'u1', mail: 'a@b.c', displayName: 'Ann', roles: ['admin'] } },
      exp: Date.parse('2026-12-01T10:00:00Z') / 1000,
    }),
    expected,
  );
  assert.deepEqual(knownSessionFields({ session: { user: flat } }), expected);
  assert.deepEqual(knownSessionFields({ roles: ['a', 'b'] }), { role: 'a, b' });
  for (const odd of [null, 42, 'text', [], [flat], { user: null }, { expiresAt: 'not a date' }])
    assert.ok(!knownSessionFields(odd).expiresAt);
});

test("Easypanel's session: the user is userId, not the session's own id; when it began and ends", () => {
  const session = {
    id: 'sess_9',
    createdAt: '2026-11-23T10:00:00.000Z',
    userId: 'usr_1',
    expiresAt: '2026-12-23T10:00:00.000Z',
    demoMode: false,
  };
  assert.deepEqual(knownSessionFields(session), {
    user: 'usr_1',
    createdAt: new Date('2026-11-23T10:00:00.000Z'),
    expiresAt: new Date('2026-12-23T10:00:00.000Z'),
  });
});

test('dates: ISO strings, Unix seconds and milliseconds', () => {
  assert.equal(toDate(1_800_000_000)?.toISOString(), '2027-01-15T08:00:00.000Z');
  assert.equal(toDate(1_800_000_000_000)?.toISOString(), '2027-01-15T08:00:00.000Z');
  assert.equal(toDate('tomorrow'), undefined);
  assert.equal(toDate(-5), undefined);
});

test('secret-looking keys are masked at any depth, other keys are not', () => {
  for (const key of [
    'token',
    'accessToken',
    'refresh_token',
    'X-Auth-Token',
    'api_key',
    'apiKey',
    'password',
    'clientSecret',
    'Authorization',
    'cookie',
  ])
    assert.ok(isSecretKey(key), key);
  for (const key of ['keyboard', 'monkey', 'tokens_used_total', 'email', 'author', 'passage', 'name']) assert.ok(!isSecretKey(key), key);
  // A null or empty secret hides nothing and is shown as it is (the console's rule, now the session's too).
  const masked = maskSecrets({ user: { email: 'a@b.c', apiKey: { id: 1 } }, list: [{ password: 'p' }], token: null, jwt: '' });
  assert.deepEqual(masked, { user: { email: 'a@b.c', apiKey: MASKED_VALUE }, list: [{ password: MASKED_VALUE }], token: null, jwt: '' });
  // The console's keys and hash-shaped values are masked in the session too.
  const hashed = '$2b$10$abcdefghijklmnopqrstuu9wCgqJvLnh1uS6w5ahcHMA9fdA2JqK2';
  assert.deepEqual(maskSecrets({ env: { A: 'B' }, salt: 's', note: hashed, list: [hashed, 'public'], tokenExpiresAt: 1 }), {
    env: MASKED_VALUE,
    salt: MASKED_VALUE,
    note: MASKED_VALUE,
    list: [MASKED_VALUE, 'public'],
    tokenExpiresAt: MASKED_VALUE,
  });
});

const core = suiteCore();

/** The error the real core gives for `call`, placed by the form logic. */
async function placeOf(call: Promise<unknown>) {
  try {
    await call;
  } catch (error) {
    return fieldForError(error as { code: 'INVALID_INPUT'; message: string });
  }
  assert.fail('expected a failure');
}

test('the core\u2019s input errors land under the field they are about', async () => {
  assert.equal(await placeOf(core().addPanel({ address: 'http://panel.example.com' })), 'address');
  assert.equal(await placeOf(core().addPanel({ address: 'panel.example.com/admin' })), 'address');
  assert.equal(await placeOf(core().addPanel({ address: '' })), 'address');
  assert.equal(await placeOf(core().addPanel({ address: 'ok.invalid', name: 'x'.repeat(101) })), 'name');
  const { id } = await core().addPanel({ address: 'ok.invalid' });
  assert.equal(await placeOf(core().addPanel({ address: 'OK.invalid' })), 'address');
  assert.equal(await placeOf(core().updatePanel(id, { loginPath: '/a b' })), 'loginPath');
  assert.equal(await placeOf(core().updatePanel(id, { loginPath: '../x' })), 'loginPath');
  assert.equal(await placeOf(core().updatePanel(id, { tokenField: 'a..b' })), 'tokenField');
  assert.equal(await placeOf(core().updatePanel(id, { sessionPath: '/a?b' })), 'sessionPath');
  assert.equal(await placeOf(core().updatePanel(id, { sessionPath: '/%2e%2e/x' })), 'sessionPath');
  assert.equal(await placeOf(core().updatePanel(id, { generation: 'soap' as 'public' })), 'generation');
  assert.equal(await placeOf(core().updatePanel(id, { name: '   ' })), 'name');
  assert.equal(await placeOf(core().logIn(id, { email: 'a@b.c', password: 'x' })), null);
});

/** `{ next: { next: … { bottom: true } } }`, `levels` deep: far past what recursion survives. */
function deepChain(levels: number): unknown {
  let node: unknown = { bottom: true };
  for (let level = 0; level < levels; level++) node = { next: node };
  return node;
}

test('masking walks any depth and any width without recursion, and copies what JSON.parse made', () => {
  const deep = deepChain(100_000);
  let masked = maskSecrets(deep) as { next?: unknown; bottom?: boolean };
  let depth = 0;
  while (masked.next) {
    masked = masked.next as typeof masked;
    depth++;
  }
  assert.equal(depth, 100_000);
  assert.equal(masked.bottom, true);

  const wide = Object.fromEntries(Array.from({ length: 10_000 }, (_, index) => [`field${index}`, index]));
  wide.password = 999;
  const maskedWide = maskSecrets(wide) as Record<string, unknown>;
  assert.equal(Object.keys(maskedWide).length, 10_001);
  assert.equal(maskedWide.field9999, 9999);
  assert.equal(maskedWide.password, MASKED_VALUE);

  const parsed = JSON.parse('{"__proto__": {"token": "t"}, "list": [[{"secret": 1}], null, -0]}') as unknown;
  const copy = maskSecrets(parsed) as Record<string, unknown>;
  assert.deepEqual(Object.keys(copy), ['__proto__', 'list']);
  assert.equal(Object.getPrototypeOf(copy), Object.prototype);
  assert.deepEqual(Object.getOwnPropertyDescriptor(copy, '__proto__')?.value, { token: MASKED_VALUE });
  assert.deepEqual(copy.list, [[{ secret: MASKED_VALUE }], null, -0]);
  for (const value of [null, 'text', 5, true, []]) assert.deepEqual(maskSecrets(value), value);
});

test('the session summary reads any shape, and keeps its lines short', () => {
  for (const odd of [null, undefined, 0, 'user', [], [{ email: 'a@b.c' }], { user: 'x'.repeat(0) }, deepChain(50_000)])
    assert.deepEqual(knownSessionFields(odd), {});
  const wide = Object.fromEntries(Array.from({ length: 10_000 }, (_, index) => [`k${index}`, index]));
  assert.deepEqual(knownSessionFields({ ...wide, email: 'a@b.c' }), { email: 'a@b.c' });
  const long = knownSessionFields({
    user: 'u'.repeat(1024 * 1024),
    name: `Ann ${'n'.repeat(5000)}`,
    roles: Array.from({ length: 10_000 }, (_, index) => `role${index}`),
  });
  assert.equal(long.user?.length, 200);
  assert.ok(long.user?.endsWith('\u2026'));
  assert.ok(long.name?.startsWith('Ann nnn'));
  assert.equal(long.name?.length, 200);
  assert.ok(long.role?.startsWith('role0, role1, '));
  assert.ok((long.role?.length ?? 0) <= 200);
  assert.deepEqual(knownSessionFields({ user: '  ann  ' }), { user: 'ann' });
});

test('json rows: only open branches give rows, a page of entries at a time, in document order', () => {
  const session = { user: { id: 1, tags: ['a', 'b'] }, list: Array.from({ length: 250 }, (_, index) => ({ index })), empty: {} };
  const view = initialView(session);
  const rows = visibleRows(session, view);
  // The root and its children are open; the 250 items of the list are not (a long list reads as a list).
  assert.deepEqual(
    rows.slice(0, 6).map((row) => [row.kind, row.kind === 'more' ? row.shown : row.name, row.depth]),
    [
      ['branch', null, 0],
      ['branch', 'user', 1],
      ['leaf', 'id', 2],
      ['branch', 'tags', 2],
      ['branch', 'list', 1],
      ['branch', '0', 2],
    ],
  );
  assert.equal(rows.length, 1 + 1 + 2 + 1 + PAGE_SIZE + 1 + 1);
  const more = rows.find((row) => row.kind === 'more');
  assert.ok(more && more.kind === 'more' && more.shown === PAGE_SIZE && more.total === 250);
  const last = rows.at(-1);
  assert.ok(last?.kind === 'branch' && last.name === 'empty' && last.size === 0 && !last.open);

  const list = session.list;
  const paged = visibleRows(session, { open: view.open, shown: new Map([[list, 200]]) });
  assert.equal(paged.filter((row) => row.depth === 2 && row.kind === 'branch').length - 1, 200);
  const all = visibleRows(session, { open: view.open, shown: new Map([[list, 250]]) });
  assert.ok(!all.some((row) => row.kind === 'more'));
  assert.equal(new Set(all.map((row) => row.id)).size, all.length, 'row ids are unique React keys');
});

test('json rows: a 100,000-level answer opens all the way with no recursion, and Expand all has a budget', () => {
  const deep = deepChain(100_000);
  const plan = planOpen(deep, { maxDepth: Infinity, rowBudget: 1_000_000 });
  assert.ok(plan.complete);
  const rows = visibleRows(deep, { open: plan.open, shown: new Map() });
  assert.equal(rows.length, 100_002);
  assert.deepEqual(rows.at(-1), { ...rows.at(-1), kind: 'leaf', name: 'bottom', value: true, depth: 100_001 });

  const limited = planOpen(deep, { maxDepth: Infinity, rowBudget: EXPAND_ROW_BUDGET });
  assert.ok(!limited.complete);
  assert.ok(limited.rows <= EXPAND_ROW_BUDGET);
  assert.ok(visibleRows(deep, { open: limited.open, shown: new Map() }).length <= EXPAND_ROW_BUDGET);

  const wide = Object.fromEntries(Array.from({ length: 10_000 }, (_, index) => [`k${index}`, { index }]));
  const wideRows = visibleRows(wide, initialView(wide));
  assert.equal(wideRows.length, 1 + PAGE_SIZE + 1, '10,000 keys give one page of rows');
  assert.ok(measureJson(wide).branches === 10_001 && measureJson(deep).depth === 100_001);
});

test('json rows: a refreshed answer keeps open and closed branches, matched by key and index; new parts open as new', () => {
  const before = { a: { b: { c: 1 } }, list: [{ x: 1 }, { y: 2 }], gone: { z: 1 }, shut: { s: 1 } };
  const after = { a: { b: { c: 2 } }, list: [{ x: 1 }, 'now a string'], added: { n: 1 }, shut: { s: 2 } };
  const open = new Set<Branch>([before, before.a, before.a.b, before.list, before.list[1] as Branch, before.gone]);
  const carried = carryView(before, { open, shown: new Map([[before.list, 1]]) }, after);
  assert.ok(carried.open.has(after) && carried.open.has(after.a) && carried.open.has(after.a.b) && carried.open.has(after.list));
  // "added" is new, so it opens as in a fresh answer; "shut" was closed by the operator and stays so.
  assert.ok(carried.open.has(after.added));
  assert.ok(!carried.open.has(after.shut));
  assert.equal(carried.open.size, 5);
  assert.equal(carried.shown.get(after.list), 1);

  // A different shape at the top: the fresh view of the new answer.
  const array = [{ id: 1 }];
  assert.deepEqual([...carryView(before, { open, shown: new Map() }, array).open], [...initialView(array).open]);
});

test('json display helpers: sizes, counts and numbers as JSON writes them', () => {
  assert.equal(utf8Length('a\u00e9\u20ac\u{1f600}'), 1 + 2 + 3 + 4);
  assert.equal(utf8Length('x'.repeat(1024 * 1024)), 1024 * 1024);
  assert.equal(formatBytes(1), '1 byte');
  assert.equal(formatBytes(1023), '1,023 bytes');
  assert.equal(formatBytes(65_536), '64.0 KiB');
  assert.equal(formatBytes(2048), '2.0 KiB');
  assert.equal(formatBytes(1024 * 1024), '1.0 MiB');
  assert.equal(formatCount(10_000), '10,000');
  assert.deepEqual([Number.MAX_VALUE, 1e308, 5e-324, -0, 2 ** 53 + 2, 1e21, 1e-7, -1.5e-10].map(formatNumber), [
    '1.7976931348623157e+308',
    '1e+308',
    '5e-324',
    '0',
    '9007199254740994',
    '1e+21',
    '1e-7',
    '-1.5e-10',
  ]);
});

test('a panel signed in with an API token is marked so; its log out note has its own title', () => {
  const apiToken = { ...basePanel, signedIn: true, tokenKind: 'api-token' as const, lastCheck: { at: 'x', ok: true as const } };
  assert.equal(isApiTokenSignIn(apiToken), true);
  assert.equal(signInKind(apiToken), 'signed-in');
  assert.equal(isApiTokenSignIn({ ...apiToken, signedIn: false }), false);
  assert.equal(isApiTokenSignIn({ ...apiToken, tokenKind: 'session' }), false);
  const note = signedOutNotice({ ...basePanel, signedOutReason: { code: 'NOT_SIGNED_IN', message: API_TOKEN_KEPT_MESSAGE } });
  assert.equal(note?.title, 'Logged out: the API token is still valid');
  assert.match(note?.detail ?? '', /stays valid until it is revoked in Easypanel/);
});
