import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Panel } from '../shared/types.ts';
import { fieldForError } from '../renderer/field-errors.ts';
import { panelStatus, signedOutNotice } from '../renderer/panel-status.ts';
import { isSecretKey, knownSessionFields, maskSecrets, MASKED_VALUE, relativeTime, toDate } from '../renderer/session-fields.ts';
import { suiteService } from './helpers.ts';

const basePanel: Panel = {
  id: '00000000-0000-4000-8000-000000000000',
  name: 'P',
  address: 'p.example.com',
  baseUrl: 'https://p.example.com/api',
  loginPath: '/login',
  tokenField: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  lastEmail: null,
  signedIn: false,
  tokenStorage: null,
  signedOutReason: null,
  lastCheck: null,
};

test('panel status: signed in, last check failed, expired (server or unreadable token), signed out', () => {
  assert.equal(panelStatus({ ...basePanel, signedIn: true, lastCheck: { at: 'x', ok: true } }).kind, 'signed-in');
  assert.equal(panelStatus({ ...basePanel, signedIn: true, lastCheck: { at: 'x', ok: false, error: { code: 'TIMEOUT', message: 'm' } } }).kind, 'check-failed');
  assert.equal(panelStatus({ ...basePanel, signedOutReason: { code: 'UNAUTHORIZED', message: 'm' } }).kind, 'expired');
  assert.equal(panelStatus({ ...basePanel, signedOutReason: { code: 'TOKEN_UNREADABLE', message: 'm' } }).kind, 'expired');
  assert.equal(panelStatus({ ...basePanel, signedOutReason: { code: 'NOT_SIGNED_IN', message: 'address changed' } }).kind, 'signed-out');
  assert.equal(panelStatus(basePanel).kind, 'signed-out');
});

test('a panel signed out without the operator asking says why; one they logged out of says nothing', () => {
  const reason = (code: Panel['signedOutReason'] & object) => signedOutNotice({ ...basePanel, signedOutReason: code });
  assert.equal(reason({ code: 'UNAUTHORIZED', message: 'm' })?.title, 'Session expired or revoked. Log in again.');
  assert.match(reason({ code: 'ENCRYPTION_UNAVAILABLE', message: 'changed from a to b' })?.title ?? '', /cannot be used on this system/);
  assert.deepEqual(reason({ code: 'NOT_SIGNED_IN', message: 'The address changed.' }), { title: 'Signed out. Log in again.', detail: 'The address changed.' });
  assert.equal(signedOutNotice(basePanel), null);
  assert.equal(signedOutNotice({ ...basePanel, signedIn: true, signedOutReason: { code: 'UNAUTHORIZED', message: 'stale' } }), null);
});

test('known session fields are found at the top, under user, data.user or session.user', () => {
  const expected = { user: 'u1', email: 'a@b.c', name: 'Ann', role: 'admin', expiresAt: new Date('2026-12-01T10:00:00.000Z') };
  const flat = { id: 'u1', email: 'a@b.c', name: 'Ann', role: 'admin', expiresAt: '2026-12-01T10:00:00.000Z' };
  assert.deepEqual(knownSessionFields(flat), expected);
  assert.deepEqual(knownSessionFields({ user: { id: 'u1', email: 'a@b.c', name: 'Ann', role: 'admin' }, expires_at: '2026-12-01T10:00:00Z' }), expected);
  assert.deepEqual(knownSessionFields({ data: { user: { username: 'u1', mail: 'a@b.c', displayName: 'Ann', roles: ['admin'] } }, exp: Date.parse('2026-12-01T10:00:00Z') / 1000 }), expected);
  assert.deepEqual(knownSessionFields({ session: { user: flat } }), expected);
  assert.deepEqual(knownSessionFields({ roles: ['a', 'b'] }), { role: 'a, b' });
  for (const odd of [null, 42, 'text', [], [flat], { user: null }, { expiresAt: 'not a date' }]) assert.ok(!knownSessionFields(odd).expiresAt);
});

test('dates: ISO strings, Unix seconds and milliseconds; relative times read naturally', () => {
  assert.equal(toDate(1_800_000_000)?.toISOString(), '2027-01-15T08:00:00.000Z');
  assert.equal(toDate(1_800_000_000_000)?.toISOString(), '2027-01-15T08:00:00.000Z');
  assert.equal(toDate('tomorrow'), undefined);
  assert.equal(toDate(-5), undefined);
  const now = new Date('2026-11-23T12:00:00Z');
  assert.equal(relativeTime(new Date('2026-11-23T15:10:00Z'), now), 'in 3 hours');
  assert.equal(relativeTime(new Date('2026-11-23T11:55:00Z'), now), '5 minutes ago');
  assert.equal(relativeTime(new Date('2026-11-24T12:00:00Z'), now), 'tomorrow');
  assert.equal(relativeTime(now, now), 'now');
});

test('secret-looking keys are masked at any depth, other keys are not', () => {
  for (const key of ['token', 'accessToken', 'refresh_token', 'X-Auth-Token', 'api_key', 'apiKey', 'password', 'clientSecret', 'Authorization', 'cookie']) assert.ok(isSecretKey(key), key);
  for (const key of ['keyboard', 'monkey', 'tokens_used_total', 'email', 'author', 'passage', 'name']) assert.ok(!isSecretKey(key), key);
  const masked = maskSecrets({ user: { email: 'a@b.c', apiKey: { id: 1 } }, list: [{ password: 'p' }], token: null });
  assert.deepEqual(masked, { user: { email: 'a@b.c', apiKey: MASKED_VALUE }, list: [{ password: MASKED_VALUE }], token: MASKED_VALUE });
});

const service = suiteService();

/** The error the real service gives for `call`, placed by the form logic. */
async function placeOf(call: Promise<unknown>) {
  try {
    await call;
  } catch (error) {
    return fieldForError(error as { code: 'INVALID_INPUT'; message: string });
  }
  assert.fail('expected a failure');
}

test('the core\u2019s input errors land under the field they are about', async () => {
  assert.equal(await placeOf(service().addPanel({ address: 'http://panel.example.com' })), 'address');
  assert.equal(await placeOf(service().addPanel({ address: 'panel.example.com/admin' })), 'address');
  assert.equal(await placeOf(service().addPanel({ address: '' })), 'address');
  assert.equal(await placeOf(service().addPanel({ address: 'ok.invalid', name: 'x'.repeat(101) })), 'name');
  const { id } = await service().addPanel({ address: 'ok.invalid' });
  assert.equal(await placeOf(service().addPanel({ address: 'OK.invalid' })), 'address');
  assert.equal(await placeOf(service().updatePanel(id, { loginPath: '/a b' })), 'loginPath');
  assert.equal(await placeOf(service().updatePanel(id, { loginPath: '../x' })), 'loginPath');
  assert.equal(await placeOf(service().updatePanel(id, { tokenField: 'a..b' })), 'tokenField');
  assert.equal(await placeOf(service().updatePanel(id, { name: '   ' })), 'name');
  assert.equal(await placeOf(service().logIn(id, { email: 'a@b.c', password: 'x' })), null);
});
