import assert from 'node:assert/strict';
import { test } from 'node:test';
import { accountKey, readPanelRecord, writeAccountOf } from '../../../../electron/core/storage/panel-record.ts';
import { newPanelRecord } from '../../../../electron/core/panels/new-panel.ts';

/**
 * A panel's other accounts as the panel list reads them: an older file without them reads as none,
 * a damaged entry is refused (never half read), and the account for writes is only ever one the
 * panel keeps; `writeAccountOf` names the vault key and words every write plan takes.
 */

const record = () => ({
  ...newPanelRecord({ baseUrl: 'https://panel.example.com/api', display: 'panel.example.com' }, '2026-12-01T00:00:00.000Z'),
  lastEmail: 'admin@example.com',
  tokenKind: 'session' as const,
});
const account = {
  id: '6f1f6c2e-2a53-4c48-9a49-8d0e43a1c3b1',
  email: 'shop@example.com',
  kind: 'session',
  tokenStorage: 'keyring',
  addedAt: '2026-12-02T00:00:00.000Z',
};

test('a record of an older file reads with no other account, writes as its own sign-in', () => {
  const { accounts: _a, writeAccount: _w, ...older } = record();
  const read = readPanelRecord(JSON.parse(JSON.stringify(older)));
  assert.ok(read);
  assert.deepEqual(read.accounts, []);
  assert.equal(read.writeAccount, null);
  assert.deepEqual(writeAccountOf(read), { key: read.id, label: 'admin@example.com' });
});

test('another account chosen for writes: its own vault key and its words', () => {
  const read = readPanelRecord({ ...record(), accounts: [account], writeAccount: account.id });
  assert.ok(read);
  assert.deepEqual(writeAccountOf(read), { key: accountKey(read.id, account.id), label: 'shop@example.com' });
  const token = readPanelRecord({ ...record(), accounts: [{ ...account, kind: 'api-token', email: null }], writeAccount: account.id });
  assert.equal(writeAccountOf(token!).label, 'an API token');
});

test('a damaged accounts field, or a write account the panel does not keep, refuses the record', () => {
  for (const bad of [
    { accounts: 'admin' },
    { accounts: [{ ...account, id: 'not-a-uuid' }] },
    { accounts: [{ ...account, kind: 'password' }] },
    { accounts: [{ ...account, tokenStorage: 'plain' }] },
    { accounts: [account, account] },
    { accounts: Array.from({ length: 9 }, (_, index) => ({ ...account, id: account.id.replace(/.$/, String(index)) })) },
    { accounts: [account], writeAccount: '00000000-0000-4000-8000-000000000000' },
    { accounts: [], writeAccount: account.id },
  ]) {
    assert.equal(readPanelRecord({ ...record(), ...bad }), null, JSON.stringify(bad).slice(0, 80));
  }
});
