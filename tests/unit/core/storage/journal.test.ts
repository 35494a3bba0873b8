import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { changeLine, fileHash, headerLine, readJournal, replay, type DocumentChange } from '../../../../electron/core/storage/journal.ts';

/** The journal's lines: what is read back, what a cut or damaged line costs, and how changes apply to the raw document. */

const FOLLOWS = fileHash(Buffer.from('{"version": 3, "panels": []}\n'));

async function journalOf(changes: readonly DocumentChange[], follows = FOLLOWS): Promise<Buffer> {
  const lines = [headerLine(follows)];
  for (const change of changes) lines.push((await changeLine(change))!.pieces.join(''));
  return Buffer.from(lines.join(''));
}

const change = (set: [string, unknown][], remove: string[] = []): DocumentChange => ({ field: 'panels', set, remove });

test('changes are read back in order, with the bytes up to the end of the last one', async () => {
  const changes = [change([['a', { id: 'a', name: 'A' }]]), change([], ['a']), change([['b', { id: 'b', name: 'B\n"quoted"' }]])];
  const bytes = await journalOf(changes);
  const read = readJournal(bytes, FOLLOWS);
  assert.deepEqual(read?.changes, changes);
  assert.equal(read?.goodBytes, bytes.length);
  assert.equal(read?.damaged, false);
});

test('a journal that follows another file, or has no header, is stale: null', async () => {
  const bytes = await journalOf([change([['a', { id: 'a' }]])]);
  assert.equal(readJournal(bytes, fileHash(Buffer.from('something else'))), null);
  assert.equal(readJournal(Buffer.from(''), FOLLOWS), null);
  assert.equal(readJournal(bytes.subarray(headerLine(FOLLOWS).length), FOLLOWS), null);
  assert.equal(readJournal(Buffer.from(`${JSON.stringify({ journal: 1, follows: FOLLOWS })}\n`), FOLLOWS), null, 'no checksum');
});

test('property: a journal cut at any byte gives exactly the changes whose lines were whole; the rest was never acknowledged', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.tuple(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 })), { minLength: 1, maxLength: 6 }),
      fc.nat(),
      async (entries, cutAt) => {
        const changes = entries.map(([key, value]) => change([[key, value]]));
        const bytes = await journalOf(changes);
        const cut = cutAt % (bytes.length + 1);
        const read = readJournal(bytes.subarray(0, cut), FOLLOWS);
        const header = Buffer.byteLength(headerLine(FOLLOWS));
        if (cut < header) return assert.equal(read, null);
        let whole = 0;
        let end = header;
        for (const one of changes) {
          const length = (await changeLine(one))!.bytes;
          assert.equal(length, Buffer.byteLength((await changeLine(one))!.pieces.join('')));
          if (end + length > cut) break;
          end += length;
          whole++;
        }
        assert.equal(read?.changes.length, whole);
        assert.deepEqual(JSON.parse(JSON.stringify(read?.changes)), JSON.parse(JSON.stringify(changes.slice(0, whole))));
        assert.equal(read?.goodBytes, end);
        assert.equal(read?.damaged, false);
      },
    ),
    { numRuns: 300 },
  );
});

test('a damaged last line is dropped as cut; a damaged line with good ones after it is damage: the changes stop there', async () => {
  const changes = [change([['a', 1]]), change([['b', 2]]), change([['c', 3]])];
  const text = (await journalOf(changes)).toString('utf8');
  const lines = text.split('\n');
  // Zeros where a crash left the end of the file unwritten.
  const zeros = Buffer.concat([Buffer.from(text), Buffer.alloc(64), Buffer.from('\n')]);
  assert.deepEqual(readJournal(zeros, FOLLOWS)?.changes.length, 3);
  assert.equal(readJournal(zeros, FOLLOWS)?.damaged, false);

  const flipped = [...lines];
  flipped[2] = flipped[2]!.replace('"b"', '"x"');
  const read = readJournal(Buffer.from(flipped.join('\n')), FOLLOWS);
  assert.equal(read?.changes.length, 1, 'the checksum catches a changed line');
  assert.equal(read?.damaged, true, 'a good line after it');

  const lastBad = [...lines];
  lastBad[3] = `${lastBad[3]!.slice(0, -3)}}}}`;
  assert.equal(readJournal(Buffer.from(lastBad.join('\n')), FOLLOWS)?.damaged, false);
});

test('replay: a list by id (set in place or at the end, removed), an object by key; other fields untouched', () => {
  const document = {
    version: 3,
    panels: [{ id: 'a', name: 'A' }, { name: 'no id' }, { id: 'b', name: 'B' }, { id: 'a', name: 'twin' }],
    other: { keep: true },
  };
  const replayed = replay(document, [
    change([['b', { id: 'b', name: 'B2' }]]),
    change([['c', { id: 'c', name: 'C' }]], ['a']),
    { field: 'checks', set: [['x', 1]], remove: [] },
  ]);
  assert.deepEqual(replayed.panels, [{ name: 'no id' }, { id: 'b', name: 'B2' }, { id: 'a', name: 'twin' }, { id: 'c', name: 'C' }]);
  assert.deepEqual(replayed.other, { keep: true });
  assert.equal('checks' in replayed, false, 'a field the document lacks is not made up');
  assert.deepEqual(document.panels.length, 4, 'the document read is not changed');

  const tokens = replay({ version: 1, tokens: { p1: 'one', p2: 'two' } }, [
    { field: 'tokens', set: [['p3', 'three']], remove: ['p1'] },
    { field: 'tokens', set: [['p2', 'TWO']], remove: [] },
  ]);
  assert.deepEqual(tokens.tokens, { p2: 'TWO', p3: 'three' });
  assert.deepEqual(Object.keys(tokens.tokens as object), ['p2', 'p3']);
});

test('a line naming __proto__ as its field is not a change: it could not set the document', async () => {
  const bytes = Buffer.from(
    headerLine(FOLLOWS) + (await changeLine({ field: '__proto__', set: [['polluted', true]], remove: [] }))!.pieces.join(''),
  );
  assert.deepEqual(readJournal(bytes, FOLLOWS)?.changes, []);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
});
