import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { HIDDEN_SECRET, hideSecrets } from '../../../../electron/core/secrets/session-redaction.ts';

const TOKEN = 'tok_9f8e7d6c5b4a';

test('replaces every string holding the token, in values and keys, and keeps everything else', () => {
  const session = {
    user: { email: 'op@example.com', roles: ['admin', `Bearer ${TOKEN}`] },
    [TOKEN]: { nested: TOKEN },
    count: 3,
    on: true,
    none: null,
  };
  const hidden = hideSecrets(session, [TOKEN]);
  assert.deepEqual(hidden, {
    user: { email: 'op@example.com', roles: ['admin', HIDDEN_SECRET] },
    [`${HIDDEN_SECRET} 1`]: { nested: HIDDEN_SECRET },
    count: 3,
    on: true,
    none: null,
  });
  assert.ok(!JSON.stringify(hidden).includes(TOKEN));
  assert.equal(session.user.roles[1], `Bearer ${TOKEN}`, 'the input is not changed');
});

test('keeps "__proto__" an ordinary key and survives deep nesting', () => {
  const parsed = JSON.parse(`{"__proto__": {"polluted": "${TOKEN}"}}`) as unknown;
  const hidden = hideSecrets(parsed, [TOKEN]) as Record<string, unknown>;
  assert.deepEqual(Object.keys(hidden), ['__proto__']);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  let deep: unknown = TOKEN;
  for (let level = 0; level < 20_000; level++) deep = [deep];
  let inner = hideSecrets(deep, [TOKEN]);
  for (let level = 0; level < 20_000; level++) inner = (inner as unknown[])[0];
  assert.equal(inner, HIDDEN_SECRET);
});

test('property: no JSON value comes out holding the token, and values without it come out equal', () => {
  const withToken = fc.jsonValue().chain((value) => fc.constantFrom(value, [value, TOKEN], { k: `x${TOKEN}y`, v: value }));
  fc.assert(
    fc.property(withToken, (value) => {
      assert.ok(!JSON.stringify(hideSecrets(value, [TOKEN])).includes(TOKEN));
    }),
  );
  fc.assert(fc.property(fc.jsonValue(), (value) => assert.deepEqual(hideSecrets(value, ['\u0000never\u0000']), value)));
});
