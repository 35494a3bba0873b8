/** How the benches print what they measured: medians, the spread of the runs, times, tables. */

/** The median of the finite values (the mean of the two middles for an even count); NaN for none. */
export function median(values: readonly number[]): number {
  const sorted = values.filter((value) => Number.isFinite(value)).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** "11–54": the smallest and largest finite value, since the machine may be shared. */
export function spread(values: readonly number[], digits = 0): string {
  const finite = values.filter((value) => Number.isFinite(value));
  if (finite.length === 0) return '-';
  return `${Math.min(...finite).toFixed(digits)}–${Math.max(...finite).toFixed(digits)}`;
}

export const ms = (value: number, digits = 1) => (Number.isFinite(value) ? `${value.toFixed(digits)} ms` : '-');

/** Prints `rows` as columns, the first row as the header: first column left-aligned, the others right. */
export function printTable(rows: readonly (readonly string[])[]): void {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length)));
  for (const [index, row] of rows.entries()) {
    console.log(row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('  '));
    if (index === 0) console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  }
}
