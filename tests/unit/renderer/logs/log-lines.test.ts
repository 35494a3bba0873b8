import assert from 'node:assert/strict';
import { test } from 'node:test';
import { appendLines, matchingLines, serviceNameProblem } from '../../../../renderer/logs/log-lines.ts';

test('appending keeps the newest lines up to the bound', () => {
  assert.deepEqual(appendLines(['a', 'b'], ['c'], 5), ['a', 'b', 'c']);
  assert.deepEqual(appendLines(['a', 'b', 'c'], ['d', 'e'], 3), ['c', 'd', 'e']);
  assert.deepEqual(appendLines(['a'], ['b', 'c', 'd', 'e'], 3), ['c', 'd', 'e']);
  const many = appendLines(
    Array.from({ length: 100_000 }, (_, n) => `${n}`),
    ['new'],
  );
  assert.equal(many.length, 100_000);
  assert.equal(many.at(-1), 'new');
  assert.equal(many[0], '1');
});

test('search: every word, any case', () => {
  const lines = ['INFO GET / 200', 'ERROR GET /cart 500', 'error POST /cart 201'];
  assert.deepEqual(matchingLines(lines, 'error cart'), ['ERROR GET /cart 500', 'error POST /cart 201']);
  assert.deepEqual(matchingLines(lines, ' 500  error '), ['ERROR GET /cart 500']);
  assert.equal(matchingLines(lines, '  '), lines);
});

test('names are checked as Easypanel allows them', () => {
  assert.equal(serviceNameProblem('service', 'web_1-a'), null);
  assert.match(serviceNameProblem('service', '') ?? '', /Enter the service name/);
  assert.match(serviceNameProblem('project', 'Shop') ?? '', /lower-case/);
  assert.match(serviceNameProblem('project', 'x'.repeat(65)) ?? '', /too long/);
});
