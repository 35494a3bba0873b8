/** The rows of a list `rowHeight` high each that show in a viewport `height` high scrolled to `scrollTop`, with a few more each side. */
export function visibleRows(count: number, rowHeight: number, scrollTop: number, height: number, spare = 8): { from: number; to: number } {
  const from = Math.max(0, Math.floor(scrollTop / rowHeight) - spare);
  const to = Math.min(count, Math.ceil((scrollTop + height) / rowHeight) + spare);
  return { from, to: Math.max(from, to) };
}
