import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import {
  deployKey,
  readBuildLog,
  readDeployment,
  readDeployments,
  readPanelActions,
  readStatus,
  readTime,
  runningDeploys,
} from '../../../../electron/core/easypanel/deployment-answers.ts';
import { HIDDEN_LINE } from '../../../../electron/core/easypanel/service-log-socket.ts';
import { secretMatcher } from '../../../../electron/core/secrets/secret-match.ts';
import { DEPLOYMENT_STATUSES } from '../../../../shared/deployments.ts';

/** Reading a panel's actions and build logs: statuses, times, ids, the cut and the cleaning of a log. */

describe('deployments', () => {
  test('the panel’s statuses are kept; any other word, or none, is unknown', () => {
    assert.deepEqual(
      ['running', 'done', 'error', 'killed', 'unknown', 'queued', 'DONE', 3, null, undefined, { status: 'done' }].map(readStatus),
      ['running', 'done', 'error', 'killed', 'unknown', 'unknown', 'unknown', 'unknown', 'unknown', 'unknown', 'unknown'],
    );
    fc.assert(fc.property(fc.anything(), (value) => DEPLOYMENT_STATUSES.includes(readStatus(value))));
  });

  test('times from ISO text or epoch milliseconds; anything else is null', () => {
    assert.equal(readTime('2026-11-25T10:00:00Z'), '2026-11-25T10:00:00.000Z');
    assert.equal(readTime(0), '1970-01-01T00:00:00.000Z');
    for (const value of ['soon', '', 1e20, Number.NaN, {}, null, 'x'.repeat(100)]) assert.equal(readTime(value), null, String(value));
  });

  test('an item without an id the contract takes back is left out; the rest read as far as they go', () => {
    assert.equal(readDeployment({ id: '../x', type: 'build' }), null);
    assert.equal(readDeployment({ id: 'a'.repeat(129) }), null);
    assert.equal(readDeployment([1]), null);
    assert.deepEqual(readDeployment({ id: 12, type: 'bu\u0007ild', status: 'running', startedAt: '2026-11-25T10:00:00Z' }), {
      id: '12',
      type: 'bu\uFFFDild',
      status: 'running',
      startedAt: '2026-11-25T10:00:00.000Z',
      finishedAt: null,
    });
    assert.deepEqual(
      readDeployments({ items: [{ id: 'a' }, { id: 'b' }, { id: 'c' }] }, () => false, 2),
      {
        deployments: [
          { id: 'a', type: 'unknown', status: 'unknown', startedAt: null, finishedAt: null },
          { id: 'b', type: 'unknown', status: 'unknown', startedAt: null, finishedAt: null },
        ],
        truncated: true,
      },
    );
    assert.deepEqual(readDeployments('nothing'), { deployments: [], truncated: false });
  });

  test('running builds and deployments mark their service; other running actions and finished builds do not', () => {
    const running = runningDeploys([
      { projectName: 'shop', serviceName: 'web', type: 'build', status: 'running' },
      { projectName: 'shop', serviceName: 'api', type: 'deployment', status: 'running' },
      { projectName: 'shop', serviceName: 'db', type: 'restart', status: 'running' },
      { projectName: 'shop', serviceName: 'old', type: 'build', status: 'done' },
      { projectName: 'shop', type: 'build', status: 'running' },
      null,
    ]);
    assert.deepEqual([...running].sort(), [deployKey('shop', 'api'), deployKey('shop', 'web')]);
  });
});

describe('build logs', () => {
  const none = () => false;

  test('a log within the limit is kept whole, cleaned line by line', () => {
    assert.deepEqual(readBuildLog('\u001b[32mok\u001b[0m\r\nstep\u0000two\n', none), { log: 'ok\nstep\uFFFDtwo', truncated: false });
    assert.deepEqual(readBuildLog('', none), { log: '', truncated: false });
    assert.deepEqual(readBuildLog(null, none), { log: '', truncated: false });
  });

  test('a longer log keeps its end from a line start, and says it was cut', () => {
    const log = Array.from({ length: 100 }, (_, index) => `line ${index}`).join('\n');
    const read = readBuildLog(log, none, 50);
    assert.equal(read.truncated, true);
    assert.ok(read.log.length <= 50);
    assert.ok(read.log.endsWith('line 99'));
    assert.match(read.log, /^line \d+\n/);
    // One line longer than the limit: its end, not nothing.
    assert.equal(readBuildLog('x'.repeat(200), none, 50).log, 'x'.repeat(50));
  });

  test('a line holding the token is replaced; the others stay', () => {
    const token = 'tok_3f0b1c2a5d6e4f708a9b';
    const read = readBuildLog(`one\nBearer ${token}\n${Buffer.from(token).toString('base64')}\nfour`, secretMatcher([token]));
    assert.deepEqual(read.log.split('\n'), ['one', HIDDEN_LINE, HIDDEN_LINE, 'four']);
  });
});

describe("a panel's actions for the timeline", () => {
  test('service and who as the panel says, names cut and cleaned, an e-mail holding the token left out, at most the limit', () => {
    const token = 'tok-3f9a8b7c6d5e4f3a2b1c';
    const answer = [
      {
        id: 'a1',
        type: 'restart',
        status: 'done',
        projectName: 'shop',
        serviceName: 'web',
        createdAt: 1_700_000_000_000,
        userEmail: 'ann@example.com',
      },
      {
        id: 'a2',
        type: 'build',
        status: 'running',
        projectName: 'shop',
        serviceName: 'x'.repeat(500),
        isApiAction: true,
        userEmail: `${token}@x`,
      },
      { id: 'a3', type: 'deployment', status: 'done', isSystemAction: 'yes', userEmail: 42 },
      { id: 'a4', type: 'stop', status: 'done' },
    ];
    const actions = readPanelActions(answer, secretMatcher([token]), 3);
    assert.deepEqual(
      actions.map((one) => one.id),
      ['a1', 'a2', 'a3'],
    );
    assert.equal(actions[0]?.userEmail, 'ann@example.com');
    assert.equal(actions[0]?.serviceName, 'web');
    assert.equal(actions[0]?.startedAt, new Date(1_700_000_000_000).toISOString());
    assert.equal(actions[1]?.userEmail, null);
    assert.equal(actions[1]?.isApiAction, true);
    assert.ok((actions[1]?.serviceName?.length ?? 0) < 500);
    // Only `true` is true: a panel's odd word does not make an action the system's.
    assert.equal(actions[2]?.isSystemAction, false);
    assert.equal(actions[2]?.userEmail, null);
    assert.equal(actions[2]?.projectName, null);
  });

  test('an answer that is no list reads as no actions', () => {
    for (const answer of [null, 'text', { items: 'no' }, 42]) assert.deepEqual(readPanelActions(answer), []);
  });
});
