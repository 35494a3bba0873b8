import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { type Core, createCore } from '../../electron/core/index.ts';
import type { Panel } from '../../shared/types.ts';
import { tempDir, testEncryption } from '../support/helpers.ts';

/**
 * Two Paneldecks editing one fleet file at once, over the real file system (watchers, the poll,
 * the lock, atomic writes), explored by fast-check: random edits of random panels from both sides,
 * sent interleaved. Once both have read what the other wrote: an edit only one side made is
 * everywhere (here, there and in the file); a field both changed holds one of the two values
 * everywhere or is listed as a conflict; no value either side never set appears; the file always
 * reads as a fleet file.
 */

type Field = 'name' | 'group' | 'colour';
const VALUES: Readonly<Record<Field, readonly (string | null)[]>> = {
  name: ['Shop', 'Shop EU', 'Shop (Ana)'],
  group: [null, 'Acme', 'Globex'],
  colour: [null, 'red', 'green'],
};
const PANELS = 3;
const edit = fc.record({
  side: fc.constantFrom('a' as const, 'b' as const),
  panel: fc.integer({ min: 0, max: PANELS - 1 }),
  field: fc.constantFrom<Field>('name', 'group', 'colour'),
  pick: fc.integer({ min: 0, max: 2 }),
});

interface Side {
  core: Core;
  wake: Set<() => void>;
}

function side(dataDir: string, path: string): Side {
  const wake = new Set<() => void>();
  const core = createCore({
    dataDir,
    encryption: testEncryption(),
    fleetFilePollMs: 50,
    chooseFleetFile: async () => path,
    chooseNewFleetFile: async () => path,
    emit: () => {
      for (const one of wake) one();
    },
  });
  return { core, wake };
}

/** Resolves once `holds()` is true, asked now and at each event of either side. */
async function settled(sides: readonly Side[], holds: () => Promise<boolean>): Promise<void> {
  for (;;) {
    if (await holds()) return;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the two sides never settled')), 20_000);
      const wake = () => {
        clearTimeout(timer);
        for (const one of sides) one.wake.delete(wake);
        resolve();
      };
      for (const one of sides) one.wake.add(wake);
    });
  }
}

const fieldOf = (panel: Panel | undefined, field: Field) => (panel ? panel[field] : undefined);

test('concurrent edits from two Paneldecks: single edits everywhere, double edits one value or a conflict, nothing invented', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(edit, { minLength: 1, maxLength: 8 }), async (edits) => {
      const repo = await tempDir();
      const dataA = await tempDir();
      const dataB = await tempDir();
      const path = join(repo.path, 'race.paneldeck-fleet.json');
      const a = side(dataA.path, path);
      const b = side(dataB.path, path);
      try {
        const made = await Promise.all(
          Array.from({ length: PANELS }, (_, index) => a.core.addPanel({ address: `p${index}.race.example`, name: `Panel ${index}` })),
        );
        await a.core.createFleetFile(made.map((panel) => panel.id));
        await b.core.openFleetFile();
        const address = (index: number) => `p${index}.race.example`;
        const idsOf = async (one: Side) => new Map((await one.core.listPanels()).map((panel) => [panel.address, panel.id]));
        const ids = { a: await idsOf(a), b: await idsOf(b) };
        // Sent interleaved, as two operators at once: each side's edits in its order, the two sides racing.
        const last = new Map<string, { a?: string | null; b?: string | null }>();
        const bySide = (which: 'a' | 'b') => edits.filter((one) => one.side === which);
        const run = async (which: 'a' | 'b') => {
          const core = which === 'a' ? a.core : b.core;
          for (const one of bySide(which)) {
            const value = VALUES[one.field][one.pick]!;
            const key = `${one.panel} ${one.field}`;
            last.set(key, { ...last.get(key), [which]: value });
            await core.updatePanel(ids[which].get(address(one.panel))!, { [one.field]: value });
          }
        };
        await Promise.all([run('a'), run('b')]);
        const fileText = () => readFileSync(path, 'utf8');
        const inFile = (index: number, field: Field) => {
          const document = JSON.parse(fileText()) as { panels: Record<string, unknown>[] };
          return document.panels.find((panel) => panel.address === address(index))?.[field];
        };
        const conflicted = async () =>
          new Set(
            [...(await a.core.listFleetFiles()), ...(await b.core.listFleetFiles())].flatMap((file) =>
              file.conflicts.map((one) => `${Number(one.address.slice(1, one.address.indexOf('.')))} ${one.field}`),
            ),
          );
        const holds = async () => {
          const [panelsA, panelsB, conflicts] = [await a.core.listPanels(), await b.core.listPanels(), await conflicted()];
          const at = (panels: Panel[], index: number) => panels.find((panel) => panel.address === address(index));
          for (const [key, { a: byA, b: byB }] of last) {
            const [index, field] = [Number(key.split(' ')[0]), key.split(' ')[1] as Field];
            const values = [fieldOf(at(panelsA, index), field), fieldOf(at(panelsB, index), field), inFile(index, field) ?? null];
            const one = byA === undefined ? byB : byB === undefined ? byA : undefined;
            if (one !== undefined) {
              if (!values.every((value) => value === one)) return false;
            } else if (!conflicts.has(key)) {
              // Both changed it: converged on one of the two, unless it is a conflict kept for the operator.
              if (!(values.every((value) => value === values[0]) && (values[0] === byA || values[0] === byB))) return false;
            }
          }
          return true;
        };
        await settled([a, b], holds);
        // The file reads as a fleet file, every panel still there once.
        const document = JSON.parse(fileText()) as { panels: { address: string }[] };
        assert.deepEqual(document.panels.map((panel) => panel.address).sort(), [0, 1, 2].map(address));
      } finally {
        // Followed no more: nothing looks at the folder once it is gone.
        for (const one of [a, b]) for (const file of await one.core.listFleetFiles()) await one.core.closeFleetFile(file.id);
        for (const dir of [repo, dataA, dataB]) await dir.cleanup();
      }
    }),
    { numRuns: Number(process.env.FLEET_RACE_RUNS ?? 12) },
  );
});
