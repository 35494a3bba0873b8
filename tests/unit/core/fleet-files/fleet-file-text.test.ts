import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { fleetFileText, readFleetFile } from '../../../../electron/core/fleet-files/fleet-file-text.ts';
import type { FleetDocument, FleetFilePanel } from '../../../../shared/fleet-file.ts';
import { fleetOf, fleetPanel } from '../../../support/fleet-files.ts';
import { PANEL_COLOURS } from '../../../../shared/labels.ts';

/**
 * The fleet file as text: what Paneldeck writes it reads back as it was; the same fleet is the
 * same bytes whatever order it was given in; a rename is one line; and a file that is not what
 * this version writes is refused whole, with what to do, never half read.
 */

const label = fc
  .stringMatching(/^[A-Za-z0-9][A-Za-z0-9 ._-]{0,19}$/)
  .map((text) => text.trim().replace(/\s+/g, ' '))
  .filter((text) => text !== '');
const randomPanel: fc.Arbitrary<FleetFilePanel> = fc
  .record({
    address: fc.stringMatching(/^[a-z]([a-z0-9-]{0,8}[a-z0-9])?\.(example|test)$/),
    name: label,
    group: fc.option(label, { nil: null }),
    tags: fc.uniqueArray(label, { maxLength: 4, comparator: (a, b) => a.toLowerCase() === b.toLowerCase() }),
    colour: fc.option(fc.constantFrom(...PANEL_COLOURS), { nil: null }),
    notes: fc.string({ maxLength: 40 }),
    generation: fc.constantFrom(null, 'public' as const, 'rpc' as const, 'trpc' as const),
    allowPlainHttp: fc.boolean(),
    certificateSha256: fc.option(
      fc
        .array(fc.integer({ min: 0, max: 255 }), { minLength: 32, maxLength: 32 })
        .map((bytes) => bytes.map((byte) => byte.toString(16).toUpperCase().padStart(2, '0')).join(':')),
      { nil: null },
    ),
    readOnly: fc.boolean(),
  })
  // fast-check's records have no prototype; the file's read ones do.
  .map((one) => ({ ...one }));
const fleetDocument = fc
  .uniqueArray(randomPanel, { maxLength: 12, selector: (one) => one.address })
  .chain((panels) =>
    fc.record({ readOnly: fc.boolean(), order: fc.shuffledSubarray(panels, { minLength: panels.length, maxLength: panels.length }) }),
  )
  .map(({ readOnly, order }): FleetDocument => ({ ...fleetOf(...order), readOnly }));

test('what Paneldeck writes it reads back as it was, in any order given, as the same bytes', () => {
  fc.assert(
    fc.property(fleetDocument, (document) => {
      const text = fleetFileText(document);
      const read = readFleetFile(text);
      assert.ok(read.ok, read.ok ? '' : read.problem);
      const byAddress = (panels: FleetFilePanel[]) => panels.toSorted((a, b) => (a.address < b.address ? -1 : 1));
      assert.deepEqual(read.document.panels, byAddress(document.panels));
      assert.equal(read.document.readOnly, document.readOnly);
      assert.equal(fleetFileText(read.document), text, 'written again: the same bytes');
      assert.equal(fleetFileText({ ...document, panels: document.panels.toReversed() }), text, 'the order given does not matter');
    }),
  );
});

test('a rename is one line of the file; two spaces a level, a newline at the end', () => {
  const before = fleetFileText(fleetOf(fleetPanel('b.example'), fleetPanel('a.example', { tags: ['eu', 'prod'] })));
  const after = fleetFileText(fleetOf(fleetPanel('b.example', { name: 'Billing' }), fleetPanel('a.example', { tags: ['eu', 'prod'] })));
  const lines = (text: string) => text.split('\n');
  const changed = lines(after).filter((line, index) => line !== lines(before)[index]);
  assert.deepEqual(changed, ['      "name": "Billing",']);
  assert.equal(lines(before).length, lines(after).length);
  assert.ok(before.endsWith('}\n'));
  assert.ok(before.indexOf('"a.example"') < before.indexOf('"b.example"'), 'sorted by address');
});

test('an address is kept as an operator reads it, whatever form it was typed in; the base URL is its identity', () => {
  const text = JSON.stringify({ ...fleetOf(), panels: [{ address: 'https://Panel.Example.com/api/', name: 'P' }] });
  const read = readFleetFile(text);
  assert.ok(read.ok);
  assert.equal(read.document.panels[0]?.address, 'panel.example.com');
  assert.deepEqual(read.baseUrls, ['https://panel.example.com/api']);
  // Fields left out read as their defaults.
  assert.deepEqual(read.document.panels[0], fleetPanel('panel.example.com', { name: 'P' }));
});

test('refused whole, saying what to do: not JSON, merge conflicts, another format, a newer version, an unknown or secret field, a panel twice, a bad entry', () => {
  const good = JSON.parse(fleetFileText(fleetOf(fleetPanel('a.example')))) as Record<string, unknown> & {
    panels: Record<string, unknown>[];
  };
  const cases: [string, RegExp][] = [
    ['{ "format": ', /not valid JSON.*take it back from git/],
    [`<<<<<<< HEAD\n${fleetFileText(fleetOf(fleetPanel('a.example')))}=======\n{}\n>>>>>>> theirs\n`, /unresolved merge conflicts/],
    [JSON.stringify({ ...good, format: 'paneldeck.panels' }), /not a Paneldeck fleet file/],
    [JSON.stringify({ ...good, version: 2 }), /newer Paneldeck \(format 2.*update Paneldeck/],
    [JSON.stringify({ ...good, version: '1' }), /no format version/],
    [JSON.stringify({ ...good, owner: 'ops' }), /field "owner" in the file .* would be lost/],
    [
      JSON.stringify({ ...good, panels: [{ ...good.panels[0], token: 'abc' }] }),
      /Panel 1 \("a"\) has a field "token" .* never holds a sign-in or a secret/,
    ],
    [JSON.stringify({ ...good, panels: [{ ...good.panels[0], email: 'me@x.example' }] }), /"email" .* never holds a sign-in/],
    [
      JSON.stringify({ ...good, panels: [good.panels[0], { ...good.panels[0], address: 'https://a.example/api' }] }),
      /lists the panel a\.example twice \(panels 1 and 2\)/,
    ],
    [JSON.stringify({ ...good, panels: [{ ...good.panels[0], address: 'http://10.0.0.5' }] }), /address Paneldeck cannot use/],
    [JSON.stringify({ ...good, panels: [{ ...good.panels[0], colour: 'pink' }] }), /"colour"/],
    [JSON.stringify({ ...good, panels: [{ ...good.panels[0], certificateSha256: 'ab:cd' }] }), /SHA-256 fingerprint/],
    [JSON.stringify({ ...good, readOnly: 'no' }), /"readOnly"/],
  ];
  for (const [text, problem] of cases) {
    const read = readFleetFile(text);
    assert.equal(read.ok, false, text.slice(0, 80));
    if (!read.ok) {
      assert.match(read.problem, /^This fleet file /);
      assert.match(read.problem, problem);
      assert.ok(!read.problem.includes('abc'), 'a secret found is not repeated');
    }
  }
  // Plain http for another machine is read when the file says so.
  const plain = readFleetFile(
    JSON.stringify({ ...good, panels: [{ ...good.panels[0], address: 'http://10.0.0.5:3000', allowPlainHttp: true }] }),
  );
  assert.ok(plain.ok);
});
