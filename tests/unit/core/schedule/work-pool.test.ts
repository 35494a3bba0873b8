import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { WorkPool } from '../../../../electron/core/schedule/work-pool.ts';

/**
 * The pass of an action across panels: items grouped by panel, each panel prepared once before its
 * first item, at most `limit` in flight over the pass and `perKey` per panel, results in the order
 * asked, and a cancel that starts nothing more. Work is held by promises the test settles, so every
 * assertion is about what started, never about time.
 */

interface Item {
  key: string;
  n: number;
}

/** A pass whose every preparation and item waits until the test lets it go, counting what is in flight. */
function heldPass(limit: number, perKey: number) {
  const started: string[] = [];
  const waiting = new Map<string, () => void>();
  const inFlight = new Map<string, number>();
  let total = 0;
  let peak = 0;
  const peakPerKey = new Map<string, number>();
  const hold = (key: string, name: string) => {
    started.push(name);
    total++;
    peak = Math.max(peak, total);
    const now = (inFlight.get(key) ?? 0) + 1;
    inFlight.set(key, now);
    peakPerKey.set(key, Math.max(peakPerKey.get(key) ?? 0, now));
    return new Promise<void>((resolve) =>
      waiting.set(name, () => {
        total--;
        inFlight.set(key, (inFlight.get(key) ?? 1) - 1);
        resolve();
      }),
    );
  };
  const pass = new WorkPool<Item, string, string>({
    limit,
    perKey,
    keyOf: (item) => item.key,
    prepare: async (key) => {
      await hold(key, `prepare ${key}`);
      return `types of ${key}`;
    },
    runOne: async (item, prepared) => {
      await hold(item.key, `${item.key}${item.n}`);
      return `${item.key}${item.n} with ${prepared}`;
    },
    cancelled: (item) => `${item.key}${item.n} cancelled`,
  });
  const release = async (name: string) => {
    const go = waiting.get(name);
    assert.ok(go, `${name} is in flight`);
    waiting.delete(name);
    go();
    // Lets the pass take the freed slot before the test looks again.
    for (let turn = 0; turn < 5; turn++) await Promise.resolve();
  };
  return { pass, started, waiting, release, stats: () => ({ peak, peakPerKey }) };
}

const items = (spec: string): Item[] => spec.split(' ').map((word) => ({ key: word[0]!, n: Number(word.slice(1)) }));

describe('work pool, keyed', () => {
  test('prepares each key once in one of its slots, then runs its items, within both bounds; results in the order asked', async () => {
    const { pass, started, release } = heldPass(3, 2);
    const run = pass.run(items('a1 b1 a2 c1 a3 b2'));
    await Promise.resolve();
    assert.deepEqual(started, ['prepare a', 'prepare b', 'prepare c']);
    await release('prepare a');
    assert.deepEqual(started.slice(3), ['a1'], 'the freed slot goes to a, whose items are ready');
    await release('prepare b');
    assert.deepEqual(started.slice(4), ['a2'], 'a may have two at once; the first key in order takes the slot');
    await release('a1');
    assert.deepEqual(started.slice(5), ['a3']);
    await release('prepare c');
    assert.deepEqual(started.slice(6), ['b1']);
    await release('a2');
    assert.deepEqual(started.slice(7), ['b2'], 'a is done starting: its slot goes to the next key with room');
    await release('a3');
    assert.deepEqual(started.slice(8), ['c1']);
    await release('b1');
    await release('c1');
    await release('b2');
    assert.deepEqual(await run, [
      'a1 with types of a',
      'b1 with types of b',
      'a2 with types of a',
      'c1 with types of c',
      'a3 with types of a',
      'b2 with types of b',
    ]);
  });

  test('a key that holds its slots holds back no other key', async () => {
    const { pass, started, release } = heldPass(3, 2);
    const run = pass.run(items('s1 s2 s3 f1 f2 f3'));
    await release('prepare s');
    await release('prepare f');
    // s keeps its two in flight; f goes through the one slot left, one item after another.
    for (const name of ['f1', 'f2', 'f3']) await release(name);
    assert.deepEqual(started, ['prepare s', 'prepare f', 's1', 's2', 'f1', 'f2', 'f3']);
    await release('s1');
    await release('s2');
    await release('s3');
    assert.equal((await run).length, 6);
  });

  test('cancel starts nothing more: what is in flight finishes, the rest answers cancelled at once', async () => {
    const { pass, started, release, waiting } = heldPass(2, 2);
    const run = pass.run(items('a1 a2 a3 b1 b2'));
    await release('prepare a');
    assert.deepEqual(started, ['prepare a', 'prepare b', 'a1']);
    pass.cancel();
    await release('prepare b');
    await release('a1');
    assert.deepEqual(started, ['prepare a', 'prepare b', 'a1'], 'nothing started after the cancel');
    assert.equal(waiting.size, 0);
    assert.deepEqual(await run, ['a1 with types of a', 'a2 cancelled', 'a3 cancelled', 'b1 cancelled', 'b2 cancelled']);
  });

  test('a cancel before the run starts nothing, and an empty run answers at once', async () => {
    const { pass, started } = heldPass(2, 2);
    pass.cancel();
    assert.deepEqual(await pass.run(items('a1 b1')), ['a1 cancelled', 'b1 cancelled']);
    assert.deepEqual(started, []);
    assert.deepEqual(await heldPass(2, 2).pass.run([]), []);
  });

  test('any items, bounds and order of answers: every item answers once, in order, within both bounds', async () => {
    await fc.assert(
      fc.asyncProperty(
        // Each item once (the held work is named by key and number, as a service is by panel and name; the contract refuses duplicates).
        fc.uniqueArray(fc.record({ key: fc.constantFrom('a', 'b', 'c', 'd'), n: fc.nat(99) }), {
          maxLength: 20,
          selector: ({ key, n }) => `${key}${n}`,
        }),
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 1, max: 3 }),
        fc.infiniteStream(fc.nat()),
        fc.option(fc.nat(30), { nil: null }),
        async (asked, limit, perKey, picks, cancelAfter) => {
          const { pass, waiting, release, stats } = heldPass(limit, perKey);
          const run = pass.run(asked);
          const answers = picks[Symbol.iterator]();
          for (let step = 0; waiting.size > 0; step++) {
            if (step === cancelAfter) pass.cancel();
            const names = [...waiting.keys()];
            await release(names[answers.next().value! % names.length]!);
          }
          const results = await run;
          assert.equal(results.length, asked.length);
          for (const [index, item] of asked.entries()) assert.ok(results[index]?.startsWith(`${item.key}${item.n} `));
          const { peak, peakPerKey } = stats();
          assert.ok(peak <= limit);
          for (const most of peakPerKey.values()) assert.ok(most <= perKey);
        },
      ),
      { numRuns: 200 },
    );
  });
});
