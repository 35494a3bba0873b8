import fc from 'fast-check';
import type { CallSpec } from './calls.ts';

/** The calls a group may start, as fast-check generates them: panels and addresses are picked when the group runs. */

const pick = fc.nat({ max: 5 });

/** Each kind of call and its weight; `without` leaves kinds out, to look for other bugs than one already found. */
export function callSpecArbitrary(without: ReadonlySet<string>): fc.Arbitrary<CallSpec> {
  const kinds: [string, number, fc.Arbitrary<CallSpec>][] = [
    [
      'logIn',
      8,
      fc.record({
        kind: fc.constant('logIn' as const),
        pick,
        right: fc.oneof({ weight: 4, arbitrary: fc.constant(true) }, fc.constant(false)),
      }),
    ],
    ['logOut', 3, fc.record({ kind: fc.constant('logOut' as const), pick })],
    ['remove', 2, fc.record({ kind: fc.constant('remove' as const), pick })],
    ['readdress', 3, fc.record({ kind: fc.constant('readdress' as const), pick, to: fc.nat({ max: 5 }) })],
    ['rename', 1, fc.record({ kind: fc.constant('rename' as const), pick })],
    [
      'weak',
      4,
      fc.record({
        kind: fc.constant('weak' as const),
        on: without.has('weakOn') ? fc.constant(false) : without.has('weakOff') ? fc.constant(true) : fc.boolean(),
      }),
    ],
    ['getSession', 3, fc.record({ kind: fc.constant('getSession' as const), pick })],
    ['add', 3, fc.record({ kind: fc.constant('add' as const), to: fc.nat({ max: 5 }) })],
    ['check', 2, fc.record({ kind: fc.constant('check' as const), pick, all: fc.boolean() })],
    ['cached', 2, fc.record({ kind: fc.constant('cached' as const), pick })],
    ['write', 3, fc.record({ kind: fc.constant('write' as const), pick })],
    ['cancel', 1, fc.record({ kind: fc.constant('cancel' as const) })],
    [
      'trust',
      3,
      fc.record({
        kind: fc.constant('trust' as const),
        pick,
        presented: fc.oneof({ weight: 3, arbitrary: fc.constant(true) }, fc.constant(false)),
        other: fc.nat({ max: 3 }),
      }),
    ],
    [
      'import',
      3,
      fc.record({
        kind: fc.constant('import' as const),
        what: fc.constantFrom('pinExisting' as const, 'pinNew' as const, 'harmless' as const),
        pick,
        to: fc.nat({ max: 5 }),
        csv: fc.boolean(),
        bare: fc.boolean(),
      }),
    ],
    ['swap', 2, fc.record({ kind: fc.constant('swap' as const), pick, to: fc.nat({ max: 2 }) })],
  ];
  return fc.oneof(...kinds.filter(([kind]) => !without.has(kind)).map(([, weight, arbitrary]) => ({ weight, arbitrary })));
}
