import assert from 'node:assert/strict';
import { test } from 'node:test';
import { upgradeWaves } from '../../../shared/upgrades.ts';

const items = (n: number) => Array.from({ length: n }, (_, index) => index);

test('the canary alone first, then waves of at most waveSize, every panel once, in order', () => {
  assert.deepEqual(upgradeWaves(items(12), { canary: 1, waveSize: 5 }), [[0], [1, 2, 3, 4, 5], [6, 7, 8, 9, 10], [11]]);
  assert.deepEqual(upgradeWaves(items(4), { canary: 0, waveSize: 2 }), [
    [0, 1],
    [2, 3],
  ]);
  assert.deepEqual(upgradeWaves(items(2), { canary: 5, waveSize: 3 }), [[0, 1]]);
  assert.deepEqual(upgradeWaves([], { canary: 1, waveSize: 5 }), []);
  for (const [n, canary, waveSize] of [
    [40, 1, 5],
    [200, 3, 7],
    [7, 0, 1],
  ] as const) {
    const waves = upgradeWaves(items(n), { canary, waveSize });
    assert.deepEqual(waves.flat(), items(n), 'each once, in order');
    assert.ok(waves.slice(canary > 0 ? 1 : 0).every((wave) => wave.length <= waveSize && wave.length > 0));
    if (canary > 0) assert.equal(waves[0]!.length, Math.min(canary, n));
  }
});
