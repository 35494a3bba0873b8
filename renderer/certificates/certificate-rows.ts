import { byDaysLeft, type CertificateRow } from '../../shared/certificates.ts';

/** A row of the Certificates view: main's row with its panel's name and whether it is marked. */
export interface CertificateListRow extends CertificateRow {
  key: string;
  panelName: string;
  /** Ends within the Preferences' certificate alert days (and has not ended): marked. */
  soon: boolean;
}

/** The rows as the view shows them: problems first, then the fewest days left; a panel removed since keeps no row. */
export function certificateRows(
  rows: readonly CertificateRow[],
  panelNames: ReadonlyMap<string, string>,
  alertDays: number,
): CertificateListRow[] {
  return byDaysLeft(rows.filter((row) => panelNames.has(row.panelId))).map((row, index) => ({
    ...row,
    // Two rows may share everything but their place (a panel listing a host twice is one row, still): the index keeps keys apart.
    key: `${row.panelId}/${row.projectName}/${row.serviceName}/${row.host}/${index}`,
    panelName: panelNames.get(row.panelId) ?? '',
    soon: row.problem === null && row.daysLeft !== null && row.daysLeft >= 0 && row.daysLeft <= alertDays,
  }));
}

/** The rows every word of `query` is found in (panel, project, service, host or problem), case aside. */
export function filterCertificates(rows: readonly CertificateListRow[], query: string): CertificateListRow[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...rows];
  return rows.filter((row) => {
    const text = [row.panelName, row.projectName, row.serviceName, row.host, row.problem ?? ''].join(' ').toLowerCase();
    return words.every((word) => text.includes(word));
  });
}

/** Days left as the view says them: "4 days", "1 day", "−2 days" once ended (its problem line says so in words), "—" when none was read. */
export function daysLeftText(daysLeft: number | null): string {
  if (daysLeft === null) return '—';
  const days = (count: number) => `${count} ${count === 1 ? 'day' : 'days'}`;
  return daysLeft >= 0 ? days(daysLeft) : `−${days(-daysLeft)}`;
}
