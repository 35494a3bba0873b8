import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GOAL_LINE, goalRounds, readGoals } from '../../bench/goals.ts';

/** `npm run bench`'s summary: goals read from each bench's output and counted over the rounds. */

const line = (goal: string, figure: string, met: boolean) =>
  `${GOAL_LINE}${JSON.stringify({ bench: 'b', goal, limit: '<= 50 ms', figure, met })}`;

test('goal lines are read from a bench output; other lines and damaged ones are left out', () => {
  const output = [
    'a table',
    line('keystroke', '41.0 ms', true),
    `${GOAL_LINE}{not json`,
    `${GOAL_LINE}{"bench":1}`,
    line('first row', '1.7x', false),
  ].join('\n');
  assert.deepEqual(
    readGoals(output).map(({ goal, met }) => [goal, met]),
    [
      ['keystroke', true],
      ['first row', false],
    ],
  );
});

test('a goal counts the rounds it held; a round that did not measure it did not meet it', () => {
  const rows = goalRounds([
    readGoals([line('keystroke', '41.0 ms', true), line('first row', '1.2x', true)].join('\n')),
    readGoals([line('keystroke', '61.0 ms', false)].join('\n')),
    readGoals([line('keystroke', '40.0 ms', true), line('first row', '1.3x', true)].join('\n')),
  ]);
  assert.deepEqual(
    rows.map(({ goal, figures, met }) => [goal, figures, met]),
    [
      ['keystroke', ['41.0 ms', '61.0 ms', '40.0 ms'], 2],
      ['first row', ['1.2x', null, '1.3x'], 2],
    ],
  );
});
