import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { type FleetMerge, type FleetPanels, mergeFleet } from '../../../../electron/core/fleet-files/fleet-merge.ts';
import { FLEET_SHARED_FIELDS, type FleetFilePanel, type FleetSharedField } from '../../../../shared/fleet-file.ts';
import { fleetPanel } from '../../../support/fleet-files.ts';

/**
 * The fleet file's three-way merge, by properties over random fleets and random edits on both
 * sides: one side's edits alone come through whole; edits of different panels or fields both
 * survive; a conflict is exactly a field both sides changed to different values; once the merge
 * is applied here, here and the file agree on every field not in conflict; and the next merge
 * against the file as written finds the same conflicts and nothing else.
 */

const FIELDS = FLEET_SHARED_FIELDS;
const VALUES: Readonly<Record<FleetSharedField, fc.Arbitrary<unknown>>> = {
  name: fc.constantFrom('Shop', 'Billing', 'Blog', 'Prod'),
  group: fc.constantFrom(null, 'Acme', 'Globex'),
  tags: fc.constantFrom([], ['eu'], ['eu', 'prod'], ['us']),
  colour: fc.constantFrom(null, 'red', 'green'),
  notes: fc.constantFrom('', 'on call: Ana', 'moved to EU'),
  generation: fc.constantFrom(null, 'public', 'rpc'),
  allowPlainHttp: fc.boolean(),
  certificateSha256: fc.constantFrom(null, `${'AB:'.repeat(31)}AB`),
  readOnly: fc.boolean(),
};

const panel = (baseUrl: string): FleetFilePanel => fleetPanel(baseUrl.replace(/^https:\/\/|\/api$/g, ''), { name: 'Shop' });
const urls = ['https://a.example/api', 'https://b.example/api', 'https://c.example/api', 'https://d.example/api'];

type Edit =
  | { kind: 'set'; url: string; field: FleetSharedField; value: unknown }
  | { kind: 'remove'; url: string }
  | { kind: 'add'; url: string };
const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc
    .constantFrom(...FIELDS)
    .chain((field) =>
      fc.record({ kind: fc.constant('set' as const), url: fc.constantFrom(...urls), field: fc.constant(field), value: VALUES[field] }),
    ),
  fc.record({ kind: fc.constant('remove' as const), url: fc.constantFrom(...urls) }),
  fc.record({ kind: fc.constant('add' as const), url: fc.constantFrom('https://e.example/api', 'https://f.example/api') }),
);

function edited(start: FleetPanels, edits: readonly Edit[]): Map<string, FleetFilePanel> {
  const out = new Map([...start].map(([url, one]) => [url, { ...one, tags: [...one.tags] }]));
  for (const one of edits) {
    if (one.kind === 'remove') out.delete(one.url);
    else if (one.kind === 'add') out.set(one.url, out.get(one.url) ?? panel(one.url));
    else {
      const found = out.get(one.url);
      if (found) (found as unknown as Record<string, unknown>)[one.field] = one.value;
    }
  }
  return out;
}

/** Here after the merge is applied: what the file added, changed and removed. */
function applied(here: FleetPanels, merge: FleetMerge): Map<string, FleetFilePanel> {
  const out = new Map(here);
  for (const one of merge.added) out.set(urls.find((url) => url.includes(one.address)) ?? `https://${one.address}/api`, one);
  for (const { baseUrl, change } of merge.changed) out.set(baseUrl, { ...out.get(baseUrl)!, ...change });
  for (const baseUrl of merge.removed) out.delete(baseUrl);
  return out;
}

const fieldsEqual = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

const base = fc.subarray(urls, { minLength: 1 }).map((chosen) => new Map(chosen.map((url) => [url, panel(url)])));

test('one side alone: its edits come through whole, nothing conflicts', () => {
  fc.assert(
    fc.property(base, fc.array(edit, { maxLength: 8 }), (start, edits) => {
      const changed = edited(start, edits);
      // Edited here only: the file becomes here, nothing comes back.
      const mine = mergeFleet(start, changed, start);
      assert.deepEqual(mine.conflicts, []);
      assert.deepEqual([...mine.file].sort(), [...changed].sort());
      assert.deepEqual([mine.added, mine.changed, mine.removed], [[], [], []]);
      // Edited there only: here becomes the file, nothing is written back.
      const theirs = mergeFleet(start, start, changed);
      assert.deepEqual(theirs.conflicts, []);
      assert.equal(theirs.writeBack, false);
      assert.deepEqual([...applied(start, theirs)].sort(), [...changed].sort());
    }),
  );
});

test('both sides: a conflict is exactly a field both changed to different values; the rest of both survives, and here agrees with the file', () => {
  fc.assert(
    fc.property(base, fc.array(edit, { maxLength: 6 }), fc.array(edit, { maxLength: 6 }), (start, mineEdits, theirEdits) => {
      const here = edited(start, mineEdits);
      const there = edited(start, theirEdits);
      const merge = mergeFleet(start, here, there);
      const conflicted = new Set(merge.conflicts.map(({ baseUrl, field }) => `${baseUrl} ${field}`));
      for (const [url, inFile] of merge.file) {
        const b = start.get(url);
        const h = here.get(url);
        const t = there.get(url);
        for (const field of FIELDS) {
          const key = `${url} ${field}`;
          if (!h || !t) continue;
          const hereChanged = !b || !fieldsEqual(h[field], b[field]);
          const thereChanged = !b || !fieldsEqual(t[field], b[field]);
          const differ = !fieldsEqual(h[field], t[field]);
          assert.equal(conflicted.has(key), hereChanged && thereChanged && differ, `${key}: conflict iff both changed it apart`);
          if (!conflicted.has(key)) {
            const expected = hereChanged && !thereChanged ? h[field] : t[field];
            assert.ok(fieldsEqual(inFile[field], expected), `${key}: the changed side's value in the file`);
          } else {
            assert.ok(fieldsEqual(inFile[field], t[field]), `${key}: the file keeps its value while in conflict`);
          }
        }
      }
      // Applied here, here and the file agree on every field not in conflict, panel for panel.
      const after = applied(here, merge);
      assert.deepEqual([...after.keys()].sort(), [...merge.file.keys()].sort());
      for (const [url, inFile] of merge.file)
        for (const field of FIELDS)
          if (!conflicted.has(`${url} ${field}`)) assert.ok(fieldsEqual(after.get(url)?.[field], inFile[field]), `${url} ${field} agrees`);
      // The next merge, against the file as written, finds the same conflicts and nothing more to do.
      const again = mergeFleet(merge.nextBase, after, merge.file);
      assert.deepEqual(again.conflicts.map(({ baseUrl, field }) => `${baseUrl} ${field}`).sort(), [...conflicted].sort());
      assert.deepEqual([again.added, again.changed, again.removed], [[], [], []]);
      assert.equal(again.writeBack, false);
    }),
  );
});

test('a panel removed there while renamed here goes, and the operator is told; removed here, it leaves the file', () => {
  const start = new Map([
    [urls[0]!, panel(urls[0]!)],
    [urls[1]!, panel(urls[1]!)],
  ]);
  const here = new Map([[urls[0]!, { ...panel(urls[0]!), name: 'Renamed' }]]);
  const there = new Map([[urls[1]!, panel(urls[1]!)]]);
  const merge = mergeFleet(start, here, there);
  assert.deepEqual(merge.removed, [urls[0]]);
  assert.deepEqual([...merge.file.keys()], [], 'removed here: out of the file too');
  assert.equal(merge.writeBack, true);
});
