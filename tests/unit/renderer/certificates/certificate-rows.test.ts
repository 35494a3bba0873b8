import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CertificateRow } from '../../../../shared/certificates.ts';
import { certificateRows, daysLeftText, filterCertificates } from '../../../../renderer/certificates/certificate-rows.ts';

/** The Certificates view's rows: problems first, then the fewest days left; within 14 days marked; searched by every word. */

const row = (host: string, daysLeft: number | null, problem: string | null = null, panelId = 'a'): CertificateRow => ({
  panelId,
  projectName: 'shop',
  serviceName: 'web',
  host,
  validTo: daysLeft === null ? null : new Date(Date.UTC(2027, 0, 1 + daysLeft)).toISOString(),
  daysLeft,
  problem,
});
const names = new Map([
  ['a', 'Billing'],
  ['b', 'Storefront'],
]);

test('problems first, then the fewest days left; a removed panel has no row; 0 to 14 days are marked, an ended one is a problem not a mark', () => {
  const rows = certificateRows(
    [
      row('late.test', 60),
      row('edge.test', 14),
      row('past.test', 15),
      row('today.test', 0, null, 'b'),
      row('wrong.test', 59, 'The certificate is not valid for wrong.test.'),
      row('ended.test', -1, 'The certificate has expired.'),
      row('gone.test', 1, null, 'removed'),
    ],
    names,
    14,
  );
  assert.deepEqual(
    rows.map((one) => one.host),
    ['ended.test', 'wrong.test', 'today.test', 'edge.test', 'past.test', 'late.test'],
  );
  assert.deepEqual(
    rows.filter((one) => one.soon).map((one) => one.host),
    ['today.test', 'edge.test'],
  );
  assert.equal(rows.find((one) => one.host === 'today.test')?.panelName, 'Storefront');
  assert.equal(new Set(rows.map((one) => one.key)).size, rows.length, 'keys apart');
  // The Preferences' days move the mark.
  const marked = (days: number) =>
    certificateRows([row('edge.test', 14), row('near.test', 3)], names, days)
      .filter((one) => one.soon)
      .map((one) => one.host);
  assert.deepEqual(marked(3), ['near.test']);
  assert.deepEqual(marked(30), ['near.test', 'edge.test']);
});

test('the search finds every word in the panel, service, host or problem, case aside', () => {
  const rows = certificateRows(
    [row('shop.test', 5), row('blog.test', 30, null, 'b'), row('x.test', 3, 'The name x.test does not resolve')],
    names,
    14,
  );
  assert.deepEqual(
    filterCertificates(rows, 'STOREFRONT blog').map((one) => one.host),
    ['blog.test'],
  );
  assert.deepEqual(
    filterCertificates(rows, 'resolve').map((one) => one.host),
    ['x.test'],
  );
  assert.equal(filterCertificates(rows, '  ').length, 3);
});

test('days left in words', () => {
  assert.equal(daysLeftText(4), '4 days');
  assert.equal(daysLeftText(1), '1 day');
  assert.equal(daysLeftText(-2), '−2 days');
  assert.equal(daysLeftText(null), '—');
});
