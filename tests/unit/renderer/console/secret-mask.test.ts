import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  answerMask,
  findSecrets,
  isSecretEntry,
  maskAnswer,
  maskedInputPaths,
  maskedJson,
  maskInput,
  withRevealed,
} from '../../../../renderer/console/secret-mask.ts';
import { type Branch, type JsonRow, type TreeView, visibleRows } from '../../../../renderer/ui/json-rows.ts';
import { MASKED_VALUE } from '../../../../shared/secret-fields.ts';
import { secretFieldPaths } from '../../../../shared/secret-fields.ts';

/** Secret fields of an answer masked until revealed, one by one; the answer itself untouched. */

const answer = {
  users: [
    { email: 'a@example.com', apiToken: 'tok-a', twoFactorSecret: 'JBSWY3DP' },
    { email: 'b@example.com', apiToken: null, passwordHash: '$2b$10$abc' },
  ],
  env: { DATABASE_URL: 'postgres://u:p@db/x' },
  projects: Array.from({ length: 1000 }, (_, index) => ({ name: `p${index}` })),
};

test('every secret-looking value is found by its path; empty ones are not secrets', () => {
  const ids = findSecrets(answer)
    .map((secret) => secret.id)
    .sort();
  assert.deepEqual(ids, ['env', 'users.0.apiToken', 'users.0.twoFactorSecret', 'users.1.passwordHash']);
});

test('the places are the shared rule’s (secretFieldPaths), hash-shaped values under any key included', () => {
  const hashed = {
    ...answer,
    misc: [{ note: '$2b$10$abcdefghijklmnopqrstuv' }, '$argon2id$v=19$m=65536'],
    nested: { access_token: 'x', tokens: [] },
  };
  const ours = findSecrets(hashed)
    .map((secret) => secret.id)
    .sort();
  const shared = secretFieldPaths(hashed)
    .paths.map((path) => path.join('.'))
    .sort();
  assert.deepEqual(ours, shared);
  assert.ok(ours.includes('misc.0.note') && ours.includes('misc.1') && ours.includes('nested.access_token'));
});

test('the view masks each secret until it is revealed, and copies only the branches leading to one', () => {
  const secrets = findSecrets(answer);
  const masked = maskAnswer(answer, secrets, new Set());
  const view = masked.value as typeof answer;
  assert.equal(masked.masked, 4);
  assert.equal(view.users[0]!.apiToken, MASKED_VALUE);
  assert.equal(view.users[0]!.email, 'a@example.com');
  assert.equal(view.env as unknown, MASKED_VALUE);
  assert.equal(answer.users[0]!.apiToken, 'tok-a', 'the answer is untouched');
  assert.equal(view.projects, answer.projects, 'a branch with no secret is the answer’s own');
  assert.ok(!JSON.stringify(view).includes('tok-a') && !JSON.stringify(view).includes('postgres'));

  const revealed = maskAnswer(answer, secrets, new Set(['users.0.apiToken']));
  const shown = revealed.value as typeof answer;
  assert.equal(revealed.masked, 3);
  assert.equal(shown.users[0]!.apiToken, 'tok-a');
  assert.equal(shown.users[0]!.twoFactorSecret, MASKED_VALUE);
  assert.equal(maskAnswer(answer, secrets, new Set(secrets.map((secret) => secret.id))).value, answer);
});

test('a __proto__ key stays an own key of the view', () => {
  const hostile = JSON.parse('{"__proto__": {"token": "x"}, "a": 1}') as Record<string, unknown>;
  const view = maskAnswer(hostile, findSecrets(hostile), new Set()).value as Record<string, unknown>;
  assert.ok(Object.hasOwn(view, '__proto__'));
  assert.equal(Object.getPrototypeOf(view), Object.prototype);
});

test('inputs are masked by the same rule, and the masked places are listed to be typed again', () => {
  const input = maskInput({ email: 'a@b.c', password: 'hunter22', nested: { apiKey: 'k' } });
  assert.deepEqual(input, { email: 'a@b.c', password: MASKED_VALUE, nested: { apiKey: MASKED_VALUE } });
  assert.deepEqual(maskedInputPaths(input), ['nested.apiKey', 'password']);
  assert.equal(maskInput('plain'), 'plain');
});

test('a 4 MiB answer of small objects is searched for secrets in well under 100 ms', () => {
  const big = {
    items: Array.from({ length: 40_000 }, (_, index) => ({
      id: index,
      name: `service-${index}`,
      image: 'nginx:latest',
      token: index % 1000 === 0 ? 't' : null,
    })),
  };
  const started = performance.now();
  const secrets = findSecrets(big);
  maskAnswer(big, secrets, new Set());
  const took = performance.now() - started;
  assert.equal(secrets.length, 40);
  assert.ok(took < 400, `took ${took.toFixed(0)} ms (budget 100 ms in the window; loose here for a loaded machine)`);
});

test('the tree masks the secret rows on screen until each is revealed; Copy masks the same', () => {
  const user = answer.users[0]!;
  const view: TreeView = { open: new Set<Branch>([answer, answer.users, user]), shown: new Map() };
  const shownValue = (rows: JsonRow[], name: string) => {
    const row = rows.find((item) => item.kind === 'leaf' && item.name === name && item.parent === user);
    return row?.kind === 'leaf' ? row.value : undefined;
  };
  let revealed = new Map() as ReturnType<typeof withRevealed>;
  let rows = visibleRows(answer, view, answerMask(revealed));
  assert.equal(shownValue(rows, 'apiToken'), MASKED_VALUE);
  assert.equal(rows.find((row) => row.kind !== 'more' && row.name === 'env')?.kind, 'leaf', 'a secret object is one masked row');
  revealed = withRevealed(revealed, user, 'apiToken');
  rows = visibleRows(answer, view, answerMask(revealed));
  assert.equal(shownValue(rows, 'apiToken'), 'tok-a');
  assert.equal(shownValue(rows, 'twoFactorSecret'), MASKED_VALUE);
  const copied = maskedJson(answer, revealed);
  assert.ok(copied.includes('"tok-a"') && !copied.includes('JBSWY3DP') && !copied.includes('postgres') && !copied.includes('$2b$'));
  assert.deepEqual(JSON.parse(maskedJson(answer, new Map())), maskAnswer(answer, findSecrets(answer), new Set()).value);
  assert.equal(isSecretEntry(['x'], '0', '$2b$10$abcdefghijklmnopqrstuv'), true);
  assert.equal(isSecretEntry({}, 'apiToken', null), false);
});
