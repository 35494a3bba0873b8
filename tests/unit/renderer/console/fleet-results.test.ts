import assert from 'node:assert/strict';
import { test } from 'node:test';
import { maskCell, resultRows, resultsCsv, sortRows } from '../../../../renderer/console/fleet-results.ts';
import { MASKED_VALUE } from '../../../../shared/secret-fields.ts';
import type { PanelOperationResult } from '../../../../shared/operations-console.ts';

/** The read across panels as a table: rows, sorting, secrets masked, CSV. */

const result = (
  panelId: string,
  value: PanelOperationResult['value'],
  ms: number | null,
  outcome: PanelOperationResult['outcome'] = 'done',
): PanelOperationResult => ({
  panelId,
  outcome,
  status: outcome === 'done' ? 200 : null,
  ms,
  value: outcome === 'done' ? value : null,
  message: outcome === 'failed' ? 'The panel could not be reached.' : null,
});

const panels = new Map([
  ['a', { name: 'Alpha', address: 'https://a.example', group: 'Acme, Inc.' }],
  ['b', { name: 'bravo', address: 'https://b.example', group: null }],
  ['c', { name: 'Charlie', address: 'https://c.example', group: 'Globex' }],
  ['d', { name: 'Delta 10', address: 'https://d.example', group: null }],
]);

const results = [result('a', 12, 40), result('b', 3, 90), result('c', null, null, 'failed'), result('d', 100, 15)];

test('sorted by each column either way; rows without a value go last', () => {
  const rows = resultRows(results, panels, 'projects.length');
  const names = (column: 'panel' | 'status' | 'ms' | 'value', descending = false) =>
    sortRows(rows, { column, descending }).map((row) => row.panelName);
  assert.deepEqual(names('panel'), ['Alpha', 'bravo', 'Charlie', 'Delta 10']);
  assert.deepEqual(names('value'), ['bravo', 'Alpha', 'Delta 10', 'Charlie']);
  assert.deepEqual(names('value', true), ['Delta 10', 'Alpha', 'bravo', 'Charlie']);
  assert.deepEqual(names('ms'), ['Delta 10', 'Alpha', 'bravo', 'Charlie']);
  assert.equal(rows[2]!.valueText, 'The panel could not be reached.');
  assert.equal(resultRows([result('gone', 1, 1)], panels, null)[0]!.panelName, 'gone');
});

test('a secret path, a secret inside an object and a hash are masked in the table and the CSV', () => {
  assert.equal(resultRows([result('a', 'tok-123', 5)], panels, 'users[0].apiToken')[0]!.valueText, MASKED_VALUE);
  assert.equal(maskCell('{"email":"a@b.c","apiToken":"t"}'), `{"email":"a@b.c","apiToken":"${MASKED_VALUE}"}`);
  assert.equal(maskCell('{"email":"a@b.c","password":"abc…'), MASKED_VALUE, 'cut JSON with a secret key is masked whole');
  assert.equal(maskCell('{"email":"a@b.c","name":"x…'), '{"email":"a@b.c","name":"x…');
  assert.equal(maskCell('$2b$10$abcdefghijklmnopqrstuv'), MASKED_VALUE);
  assert.equal(maskCell(7), 7);
  const csv = resultsCsv(resultRows([result('a', '{"apiToken":"secret-t"}', 5)], panels, null), null);
  assert.ok(!csv.includes('secret-t'));
});

test("the CSV lists every row as shown with its panel's group (a client), formulas neutralised", () => {
  const rows = sortRows(resultRows([...results, result('a', '=cmd()', 1)].slice(1), panels, 'version'), {
    column: 'panel',
    descending: false,
  });
  assert.equal(
    resultsCsv(rows, 'version'),
    [
      'panel,group,address,outcome,status,ms,value (version),message',
      `Alpha,"Acme, Inc.",https://a.example,done,200,1,'=cmd(),`,
      'bravo,,https://b.example,done,200,90,3,',
      'Charlie,Globex,https://c.example,failed,,,,The panel could not be reached.',
      'Delta 10,,https://d.example,done,200,15,100,',
      '',
    ].join('\r\n'),
  );
});
