import { CSV_COLUMNS, HEADERLESS_CSV_COLUMNS, type CsvColumn, type ImportFormat } from '../../../shared/transfer.ts';

/** A CSV import: its rows (RFC 4180) and their cells, read under the columns of shared/transfer.ts. */

/** One panel's fields as the text gives them (JSON values, or CSV cells turned into them). */
export interface RawEntry {
  line: number;
  fields: Record<string, unknown>;
  /** What is wrong with the row as a whole (a CSV row with too many cells), before its fields. */
  problem?: string;
}

/** An import's text read, whatever its format (import-reader.ts). */
export interface ImportText {
  format: ImportFormat;
  entries: RawEntry[];
  /** What the reader noticed about the whole text, such as a column it ignored. */
  notes: string[];
}

/** Each name a header may give a column, lower-cased, to the column. */
const COLUMN_BY_NAME = new Map<string, CsvColumn>(
  (Object.entries(CSV_COLUMNS) as [CsvColumn, readonly string[]][]).flatMap(([column, names]) =>
    names.map((name) => [name.toLowerCase(), column] as const),
  ),
);

/** The column a header cell names, or undefined for one not read. */
export function csvColumnNamed(cell: string): CsvColumn | undefined {
  return COLUMN_BY_NAME.get(cell.trim().toLowerCase());
}

/**
 * A CSV: with a header naming its columns (any order; unknown ones are ignored and said so), or
 * without one, as HEADERLESS_CSV_COLUMNS. A row of one cell is an address. Empty cells give
 * nothing, so an update leaves that setting as it is.
 */
export function readCsv(text: string): ImportText {
  const rows = csvRows(text);
  const notes: string[] = [];
  let columns: readonly (CsvColumn | '')[] = HEADERLESS_CSV_COLUMNS;
  const first = rows[0];
  const header = first?.cells.map((cell) => cell.trim().toLowerCase()) ?? [];
  const hasHeader = header.some((cell) => csvColumnNamed(cell) === 'address');
  if (hasHeader) {
    rows.shift();
    columns = header.map((cell) => csvColumnNamed(cell) ?? '');
    const ignored = first!.cells.filter((_, index) => columns[index] === '' && header[index] !== '');
    if (ignored.length > 0)
      notes.push(`Ignored column${ignored.length === 1 ? '' : 's'}: ${ignored.map((cell) => `"${cell.trim().slice(0, 40)}"`).join(', ')}.`);
  }
  const entries: RawEntry[] = [];
  for (const { line, cells } of rows) {
    if (cells.every((cell) => cell.trim() === '') || cells[0]!.trim().startsWith('#')) continue;
    if (!hasHeader && cells.length > HEADERLESS_CSV_COLUMNS.length) {
      entries.push({
        line,
        fields: { address: cells[1] ?? '' },
        problem: `This row has ${cells.length} columns; without a header row a CSV has ${HEADERLESS_CSV_COLUMNS.join(',')}.`,
      });
      continue;
    }
    const fields: Record<string, unknown> = {};
    const given: readonly (CsvColumn | '')[] = !hasHeader && cells.length === 1 ? ['address'] : columns;
    given.forEach((column, index) => {
      const cell = cells[index]?.trim() ?? '';
      if (column === '' || cell === '') return;
      fields[column] = csvValue(column, cell);
    });
    entries.push({ line, fields });
  }
  return { format: 'csv', entries, notes };
}

function csvValue(column: CsvColumn, cell: string): unknown {
  switch (column) {
    case 'tags':
      return cell.split(/[,;]/);
    case 'favourite':
    case 'allowPlainHttp':
      return /^(yes|y|true|1|★)$/i.test(cell) ? true : /^(no|n|false|0)$/i.test(cell) ? false : cell;
    case 'colour':
      return cell.toLowerCase();
    default:
      return cell;
  }
}

/**
 * RFC 4180 rows: quoted cells may hold commas, doubled quotes and line breaks. Linear: whether the
 * cell so far is blank is kept as it grows, never re-read (re-trimming the growing cell at every
 * quote made a 512 KiB paste hold main for 25 s).
 */
export function csvRows(text: string): { line: number; cells: string[] }[] {
  const rows: { line: number; cells: string[] }[] = [];
  let cells: string[] = [];
  let cell = '';
  /** Whether `cell` is only white space so far (a quote there opens a quoted cell). */
  let blank = true;
  let quoted = false;
  let line = 1;
  let rowLine = 1;
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        cell += '"';
        blank = false;
        index++;
      } else if (char === '"') quoted = false;
      else {
        if (char === '\n') line++;
        cell += char;
        if (blank && char.trim() !== '') blank = false;
      }
    } else if (char === '"' && blank) {
      quoted = true;
      cell = '';
    } else if (char === ',') {
      cells.push(cell);
      cell = '';
      blank = true;
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[index + 1] === '\n') index++;
      cells.push(cell);
      rows.push({ line: rowLine, cells });
      cells = [];
      cell = '';
      blank = true;
      rowLine = ++line;
    } else {
      cell += char;
      if (blank && char.trim() !== '') blank = false;
    }
  }
  if (cell !== '' || cells.length > 0) rows.push({ line: rowLine, cells: [...cells, cell] });
  return rows;
}
