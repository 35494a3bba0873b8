import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cellText, csvCell, toCsv } from '../../../../renderer/ui/csv.ts';

/** The fleet read's CSV: quoting, and formulas neutralised. */

test('quotes, commas and line breaks are quoted as RFC 4180 says', () => {
  assert.equal(csvCell('plain'), 'plain');
  assert.equal(csvCell('a,b'), '"a,b"');
  assert.equal(csvCell('say "hi"'), '"say ""hi"""');
  assert.equal(csvCell('two\nlines'), '"two\nlines"');
  assert.equal(csvCell(' padded '), '" padded "');
  assert.equal(
    toCsv([
      ['panel', 'value'],
      ['Shop', '1,2'],
    ]),
    'panel,value\r\nShop,"1,2"\r\n',
  );
});

test('a cell that a spreadsheet would run as a formula starts with an apostrophe; plain numbers stay numbers', () => {
  assert.equal(csvCell('=HYPERLINK("http://x")'), `"'=HYPERLINK(""http://x"")"`);
  assert.equal(csvCell('+1+1'), "'+1+1");
  assert.equal(csvCell('-2+3'), "'-2+3");
  assert.equal(csvCell('@SUM(A1)'), "'@SUM(A1)");
  assert.equal(csvCell('\tcmd'), "'\tcmd");
  assert.equal(csvCell('-12.5'), '-12.5');
  assert.equal(csvCell('1e5'), '1e5');
});

test('values become one cell: text as is, the rest as JSON, nothing as empty', () => {
  assert.equal(cellText('v2.30'), 'v2.30');
  assert.equal(cellText(3), '3');
  assert.equal(cellText({ a: [1] }), '{"a":[1]}');
  assert.equal(cellText(null), '');
});
