import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { csvRows } from '../../../../electron/core/transfer/import-csv.ts';

/** RFC 4180 writing: a cell with a comma, a quote or a line break is quoted, its quotes doubled. */
function csvLine(cells: readonly string[]): string {
  return cells.map((cell) => (/[",\r\n]/.test(cell) || cell.trim() !== cell ? `"${cell.replaceAll('"', '""')}"` : cell)).join(',');
}

test('any rows written as RFC 4180 read back as the same cells, each on the line it starts', () => {
  const cell = fc.string({ unit: fc.constantFrom('a', 'b', ' ', ',', '"', '\n', '\r\n', 'é', '#'), maxLength: 12 });
  fc.assert(
    fc.property(fc.array(fc.array(cell, { minLength: 2, maxLength: 5 }), { minLength: 1, maxLength: 8 }), (rows) => {
      const text = rows.map(csvLine).join('\n');
      const read = csvRows(text);
      assert.deepEqual(
        read.map((row) => row.cells),
        rows,
      );
      let line = 1;
      rows.forEach((row, index) => {
        assert.equal(read[index]!.line, line);
        line += csvLine(row).split(/\r\n|\n|\r/).length;
      });
    }),
    { numRuns: 300 },
  );
});

test('quotes open a quoted cell only where the cell is blank so far; elsewhere they are text', () => {
  assert.deepEqual(csvRows('a"b,  "c,d",e'), [{ line: 1, cells: ['a"b', 'c,d', 'e'] }]);
  assert.deepEqual(csvRows('"x"y"z",w'), [{ line: 1, cells: ['xy"z"', 'w'] }]);
});

test('a 16 MiB CSV row whose cell holds a quote every 64 characters is read in one pass (re-trimming the cell at each quote took hours)', () => {
  const name = `${'n'.repeat(63)}"`.repeat((16 * 1024 * 1024) / 64);
  const read = csvRows(`${name},https://panel.example\nsecond,https://other.example`);
  assert.equal(read.length, 2);
  assert.equal(read[0]!.cells[0]!.length, name.length);
  assert.equal(read[0]!.cells[0], name);
  assert.deepEqual(read[1], { line: 2, cells: ['second', 'https://other.example'] });
});
