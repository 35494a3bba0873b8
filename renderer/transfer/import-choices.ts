import type { ImportPreview, ImportRow, ImportRowStatus } from '../../shared/transfer.ts';

/**
 * The import preview as the operator's plain-http choices make it. Main sends each line refused
 * only for plain http with what it would be with it allowed (`ifPlainHttp`); the window shows
 * that instead for the lines chosen, and counts what the import would then do.
 */

/** One line of the preview, with its position in the preview's rows (what a choice names). */
export interface ShownRow {
  row: ImportRow;
  index: number;
  /** The line offers unencrypted HTTP (chosen or not). */
  offersPlainHttp: boolean;
}

export function shownRows(preview: ImportPreview, chosen: ReadonlySet<number>): ShownRow[] {
  return preview.rows.map((row, index) => ({
    row: chosen.has(index) && row.ifPlainHttp ? row.ifPlainHttp : row,
    index,
    offersPlainHttp: row.ifPlainHttp !== undefined,
  }));
}

/** The positions of the lines that offer unencrypted HTTP. */
export function plainHttpOffers(preview: ImportPreview): number[] {
  return preview.rows.flatMap((row, index) => (row.ifPlainHttp ? [index] : []));
}

export function countRows(rows: readonly ShownRow[]): Record<ImportRowStatus, number> {
  const counts: Record<ImportRowStatus, number> = { new: 0, duplicate: 0, same: 0, invalid: 0 };
  for (const { row } of rows) counts[row.status]++;
  return counts;
}

const NAMES_SHOWN = 12;

/** "Fresh one, Said so": the panels the import adds or changes that would be reached over plain http; null for none. */
export function plainHttpNames(rows: readonly ShownRow[]): string | null {
  const names = rows.flatMap(({ row }) =>
    row.plainHttp && (row.status === 'new' || row.status === 'duplicate') ? [row.name ?? row.address] : [],
  );
  if (names.length === 0) return null;
  const more = names.length - NAMES_SHOWN;
  return more > 0 ? `${names.slice(0, NAMES_SHOWN).join(', ')} and ${more.toLocaleString('en')} more` : names.join(', ');
}
