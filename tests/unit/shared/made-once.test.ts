import assert from 'node:assert/strict';
import { test } from 'node:test';
import { madeOnce } from '../../../shared/made-once.ts';

test('madeOnce makes nothing until asked, then the one value every time', () => {
  let made = 0;
  const collator = madeOnce(() => {
    made++;
    return new Intl.Collator('en', { numeric: true });
  });
  assert.equal(made, 0);
  const first = collator();
  assert.equal(collator(), first);
  assert.equal(made, 1);
  assert.deepEqual(['web 10', 'web 9'].sort(first.compare), ['web 9', 'web 10']);
});

test('a value that is undefined is kept too, not made again', () => {
  let made = 0;
  const nothing = madeOnce(() => {
    made++;
    return undefined;
  });
  assert.equal(nothing(), undefined);
  assert.equal(nothing(), undefined);
  assert.equal(made, 1);
});
