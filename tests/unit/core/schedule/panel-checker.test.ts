import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PanelChecker } from '../../../../electron/core/schedule/panel-checker.ts';
import type { PanelCheck } from '../../../../shared/types.ts';

/** The checker alone, with reads the test answers by hand: which reads happen, and who gets which answer. */
function checkerWithHeldReads(options: { onProgress?: () => void } = {}) {
  const held: { panelId: string; answer: (check: PanelCheck) => void }[] = [];
  let reads = 0;
  const checker = new PanelChecker({
    concurrency: () => 4,
    runOne: (panelId) => {
      reads++;
      return new Promise((answer) => held.push({ panelId, answer }));
    },
    onProgress: options.onProgress,
    now: () => new Date('2030-01-01T00:00:00Z'),
  });
  const answer = async (panelId: string, at: string) => {
    const index = held.findIndex((read) => read.panelId === panelId);
    assert.ok(index >= 0, `no read of ${panelId} is under way`);
    const [read] = held.splice(index, 1);
    read!.answer({ panelId, checkedAt: at, ok: true });
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { checker, answer, reads: () => reads };
}

test('a panel asked for again after it was read in the running pass is read again; each call gets its own answers', async () => {
  const { checker, answer, reads } = checkerWithHeldReads();
  const first = checker.run(['a', 'b']);
  await answer('a', '2030-01-01T00:00:01.000Z');
  // Its session may have ended since (an expiry recheck asks exactly this): not the old answer.
  const again = checker.run(['a']);
  await answer('a', '2030-01-01T00:00:02.000Z');
  assert.deepEqual(
    (await again).map((check) => check.checkedAt),
    ['2030-01-01T00:00:02.000Z'],
  );
  await answer('b', '2030-01-01T00:00:03.000Z');
  assert.deepEqual(
    (await first).map((check) => check.checkedAt),
    ['2030-01-01T00:00:01.000Z', '2030-01-01T00:00:03.000Z'],
  );
  assert.equal(reads(), 3);
});

test('a panel asked for while its read is under way joins that read', async () => {
  const { checker, answer, reads } = checkerWithHeldReads();
  const first = checker.run(['a']);
  const joined = checker.run(['a']);
  await answer('a', '2030-01-01T00:00:01.000Z');
  assert.deepEqual(await joined, await first);
  assert.equal(reads(), 1);
});

test('a progress listener that throws does not stall the pass', async () => {
  const { checker, answer } = checkerWithHeldReads({
    onProgress: () => {
      throw new Error('the window is gone');
    },
  });
  const checks = checker.run(['a', 'b', 'c', 'd', 'e']);
  for (const panelId of ['a', 'b', 'c', 'd']) await answer(panelId, '2030-01-01T00:00:01.000Z');
  await answer('e', '2030-01-01T00:00:01.000Z');
  assert.equal((await checks).length, 5);
});
