import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { PanelError } from '../../../../shared/contract/errors.ts';
import { normaliseAddress } from '../../../../electron/core/common/address.ts';
import { jsonFileStore, journalPathOf, type JournalPolicy } from '../../../../electron/core/storage/document-store.ts';
import { PanelRegistry, type PanelRecord } from '../../../../electron/core/storage/panel-registry.ts';
import { newPanelRecord as newRecord } from '../../../../electron/core/panels/new-panel.ts';
import { FaultyFiles } from '../../../support/storage/faulty-files.ts';

/**
 * Property: the panel list under changes made several at a time, a disk that fails any file
 * operation (or writes half of what it was given) and kills at any moment. After every step: each
 * change that resolved is on disk and each that rejected is not (the list is what the resolved
 * ones make, applied in the order they were made), what the registry shows is that list, and a
 * fresh start reads it. The folder copied at any moment during a step (a kill there) reads as
 * the list after some number of that step's changes, never fewer than had answered, and perhaps
 * the one in flight.
 */

const uuid = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
const baseUrl = (address: number) => normaliseAddress(`https://p${address}.example.com`).baseUrl;

/** A panel as an import makes it, with an id the test can name. */
function record(id: number, address: number, name: string): PanelRecord {
  const { display } = normaliseAddress(`https://p${address}.example.com`);
  return { ...newRecord({ baseUrl: baseUrl(address), display, allowPlainHttp: false, name }, '2026-01-01T00:00:00.000Z'), id: uuid(id) };
}

type Op =
  | { kind: 'add'; address: number; name: string }
  | { kind: 'import'; addresses: number[] }
  | { kind: 'rename'; pick: number; name: string }
  | { kind: 'move'; pick: number; address: number }
  | { kind: 'remove'; pick: number };

const address = fc.integer({ min: 0, max: 12 });
const name = fc.string({ minLength: 1, maxLength: 12 });
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('add' as const), address, name }),
  fc.record({ kind: fc.constant('import' as const), addresses: fc.array(address, { minLength: 1, maxLength: 4 }) }),
  fc.record({ kind: fc.constant('rename' as const), pick: fc.nat(), name }),
  fc.record({ kind: fc.constant('move' as const), pick: fc.nat(), address }),
  fc.record({ kind: fc.constant('remove' as const), pick: fc.nat() }),
);
/** Which file operation of the step fails, how; which ones a kill lands before. */
const step = fc.record({
  ops: fc.array(op, { minLength: 1, maxLength: 4 }),
  fault: fc.option(fc.record({ at: fc.nat({ max: 30 }), partial: fc.boolean(), code: fc.constantFrom('ENOSPC', 'EIO') }), { freq: 2 }),
  kills: fc.array(fc.nat({ max: 40 }), { maxLength: 3 }),
  compact: fc.boolean(),
});
const policy: fc.Arbitrary<JournalPolicy> = fc.record({
  fromBytes: fc.constantFrom(0, 0, 1500),
  journalShare: fc.constantFrom(0.3, 1, 4),
});

/** A change as a function of the list it is made on; null when it does nothing there. */
type Change = (list: readonly PanelRecord[]) => PanelRecord[] | null;

function apply(list: readonly PanelRecord[], change: Change): PanelRecord[] {
  return change(list) ?? [...list];
}

const view = (list: readonly PanelRecord[]) => list.map((panel) => `${panel.id.slice(-3)}:${panel.name}@${panel.baseUrl}`);

test('property: concurrent changes, a failing disk and kills at any moment leave the list every resolved change made', async () => {
  const scratch = mkdtempSync(join(tmpdir(), 'paneldeck-registry-property-'));
  let runs = 0;
  const totals = { resolved: 0, storageFailures: 0, refusedTwins: 0, kills: 0, journalLines: 0 };
  try {
    await fc.assert(
      fc.asyncProperty(policy, fc.array(step, { minLength: 1, maxLength: 8 }), async (journal, steps) => {
        const dir = join(scratch, `run-${runs++}`);
        mkdirSync(dir);
        const path = join(dir, 'panels.json');
        const files = new FaultyFiles();
        // Two additions a turn: the imports of the steps are shown in slices, other changes in between.
        const registry = new PanelRegistry(jsonFileStore(path, { mode: 0o600, journal, files }), new Date(), { additionsPerTurn: 2 });
        let expected: PanelRecord[] = [];
        let nextId = 1;
        for (const [stepIndex, { ops, fault, kills, compact }] of steps.entries()) {
          // The changes of this step in the order they are made, each a function of the list as it is written.
          const changes: Change[] = [];
          const calls: Promise<unknown>[] = [];
          for (const one of ops) {
            const [call, change] = start(registry, one, () => nextId++);
            changes.push(change);
            calls.push(call);
          }
          // States after 0, 1, ... of this step's changes, whichever resolved: what a kill may leave.
          const copies: { dir: string; settledBefore: number }[] = [];
          const settled = calls.map(() => false);
          calls.forEach(
            (call, index) =>
              void call.then(
                () => (settled[index] = true),
                () => (settled[index] = true),
              ),
          );
          // The changes made first that have all answered: a kill cannot take those back.
          const answeredInOrder = () => {
            const first = settled.indexOf(false);
            return first < 0 ? settled.length : first;
          };
          let seen = 0;
          files.decide = (operation) => {
            const index = seen++;
            if (kills.includes(index)) {
              const copy = join(scratch, `kill-${runs}-${stepIndex}-${index}`);
              mkdirSync(copy);
              for (const file of [path, journalPathOf(path)])
                if (existsSync(file)) copyFileSync(file, join(copy, file.slice(dir.length + 1)));
              copies.push({ dir: copy, settledBefore: answeredInOrder() });
            }
            const failing = fault && index === fault.at && operation.kind !== 'close' && operation.kind !== 'remove';
            return failing ? { fail: true, code: fault.code, ...(fault.partial ? { partialBytes: 7 } : {}) } : { fail: false };
          };
          const outcomes = await Promise.allSettled(calls);
          if (compact) await registry.compact().catch(() => undefined);
          files.decide = () => ({ fail: false });

          const states = [expected];
          for (const [index, outcome] of outcomes.entries()) {
            if (outcome.status === 'fulfilled') {
              expected = apply(expected, changes[index]!);
              totals.resolved++;
            } else {
              assert.ok(outcome.reason instanceof PanelError, `not a PanelError: ${String(outcome.reason)}`);
              assert.ok(['STORAGE', 'DUPLICATE_PANEL'].includes(outcome.reason.code), outcome.reason.code);
              if (outcome.reason.code === 'STORAGE') totals.storageFailures++;
              else totals.refusedTwins++;
            }
            states.push(expected);
          }
          const urls = expected.map((panel) => panel.baseUrl);
          assert.equal(new Set(urls).size, urls.length, 'two panels at one address');
          assert.deepEqual(view(registry.list()), view(expected), `step ${stepIndex}: what the registry shows`);
          const reopened = new PanelRegistry(jsonFileStore(path, { mode: 0o600, journal }), new Date());
          assert.equal(reopened.loadProblem, null);
          assert.deepEqual(view(reopened.list()), view(expected), `step ${stepIndex}: what a new start reads`);
          for (const copy of copies) {
            totals.kills++;
            const killed = new PanelRegistry(jsonFileStore(join(copy.dir, 'panels.json'), { mode: 0o600, journal }), new Date());
            assert.equal(killed.loadProblem, null, 'a kill left a file the next start finds damaged');
            const found = view(killed.list()).join('\n');
            // After some of the changes, the first ones that answered at least; and the change in flight at the kill may
            // have landed, whatever it would have answered (the kill came first).
            const possible = states
              .slice(copy.settledBefore)
              .flatMap((state, index) => [
                state,
                ...(changes[copy.settledBefore + index] ? [apply(state, changes[copy.settledBefore + index]!)] : []),
              ])
              .map((state) => view(state).join('\n'));
            assert.ok(possible.includes(found), `step ${stepIndex}: a kill left a list no prefix of the changes makes:\n${found}`);
            rmSync(copy.dir, { recursive: true, force: true });
          }
        }
        if (existsSync(journalPathOf(path))) totals.journalLines += readFileSync(journalPathOf(path), 'utf8').split('\n').length - 2;
        rmSync(dir, { recursive: true, force: true });
      }),
      { numRuns: Number(process.env.PANELDECK_STORAGE_RUNS ?? 150) },
    );
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  console.log(
    `registry property: ${runs} runs, ${totals.resolved} changes resolved, ${totals.storageFailures} failed on the disk, ${totals.refusedTwins} refused as twins, ${totals.kills} kills replayed, ${totals.journalLines} journal lines left at the ends`,
  );
  assert.ok(totals.storageFailures > 20 && totals.kills > 20, 'too few failures or kills to say anything');
});

/** Starts `op` on the registry; returns its promise and the change it makes, as a function of the list it is written on. */
function start(registry: PanelRegistry, op: Op, newId: () => number): [Promise<unknown>, Change] {
  const pick = (list: readonly PanelRecord[], index: number) => (list.length === 0 ? undefined : list[index % list.length]);
  const twin = (list: readonly PanelRecord[], url: string, self?: string) =>
    list.some((panel) => panel.baseUrl === url && panel.id !== self);
  switch (op.kind) {
    case 'add': {
      const added = record(newId(), op.address, op.name);
      return [registry.insert(added), (list) => (twin(list, added.baseUrl) ? null : [...list, added])];
    }
    case 'import': {
      const addresses = [...new Set(op.addresses)];
      const added = addresses.map((one) => record(newId(), one, `Imported ${one}`));
      return [
        registry.insertAndUpdate(added, new Map()),
        (list) => (added.some((panel) => twin(list, panel.baseUrl)) ? null : [...list, ...added]),
      ];
    }
    case 'rename':
    case 'move': {
      // Picked from what the registry shows now, as a window would.
      const target = pick(registry.list(), op.pick);
      if (!target) return [Promise.resolve(), () => null];
      const change = op.kind === 'rename' ? { name: op.name } : { baseUrl: baseUrl(op.address) };
      return [
        registry.update(target.id, change),
        (list) => {
          if (!list.some((panel) => panel.id === target.id)) return null;
          if (change.baseUrl && twin(list, change.baseUrl, target.id)) return null;
          return list.map((panel) => (panel.id === target.id ? { ...panel, ...change } : panel));
        },
      ];
    }
    case 'remove': {
      const target = pick(registry.list(), op.pick);
      if (!target) return [Promise.resolve(), () => null];
      return [registry.remove(target.id), (list) => list.filter((panel) => panel.id !== target.id)];
    }
  }
}
