import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEPLOYMENT_STATUSES } from '../../../../shared/deployments.ts';
import { deploymentDuration, elapsedText, logRows, STATUS_MARKS, STATUS_WORDS } from '../../../../renderer/deployments/deployment-rows.ts';

test('every status has a word and a mark of its own', () => {
  assert.equal(new Set(DEPLOYMENT_STATUSES.map((status) => STATUS_WORDS[status])).size, DEPLOYMENT_STATUSES.length);
  assert.equal(new Set(DEPLOYMENT_STATUSES.map((status) => STATUS_MARKS[status])).size, DEPLOYMENT_STATUSES.length);
});

test('a build’s length to the second under an hour; a running one so far; none without a start', () => {
  assert.deepEqual(
    [elapsedText(0), elapsedText(42_900), elapsedText(185_000), elapsedText(3_720_000)],
    ['0 s', '42 s', '3 min 5 s', '1 h 2 min'],
  );
  const startedAt = '2026-11-25T10:00:00.000Z';
  const now = Date.parse(startedAt) + 75_000;
  assert.equal(deploymentDuration({ status: 'done', startedAt, finishedAt: '2026-11-25T10:00:30.000Z' }, now), '30 s');
  assert.equal(deploymentDuration({ status: 'running', startedAt, finishedAt: null }, now), '1 min 15 s so far');
  assert.equal(deploymentDuration({ status: 'unknown', startedAt, finishedAt: null }, now), '');
  assert.equal(deploymentDuration({ status: 'done', startedAt: null, finishedAt: startedAt }, now), '');
});

test('a log’s rows; an empty log has none', () => {
  assert.deepEqual(logRows(''), []);
  assert.deepEqual(logRows('a\n\nb'), ['a', '', 'b']);
});
