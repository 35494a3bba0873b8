/**
 * What the benches that drive Chromium share (session-render.ts, fleet-board.ts): the system's
 * Chromium launched as the browser tests launch it, the median of runs, and a plain table.
 */
import { chromium, type Browser } from '@playwright/test';
import { chromiumLaunchOptions } from '../tests/browser/chromium.ts';

/** Headless Chromium with the browser tests' executable and flags. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch(chromiumLaunchOptions);
}

/** The middle value (the upper one of the two middles for an even count); NaN for none. */
export const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

/** Prints `rows` as columns, the first row as the header: first column left-aligned, the others right. */
export function printTable(rows: readonly (readonly string[])[]): void {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length)));
  for (const [index, row] of rows.entries()) {
    console.log(row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('  '));
    if (index === 0) console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  }
}
