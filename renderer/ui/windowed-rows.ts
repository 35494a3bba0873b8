import { useVirtualizer, type VirtualItem } from '@tanstack/react-virtual';
import type { CSSProperties, RefObject } from 'react';

/**
 * The rows of a scrolling table that are in view (a few more each side), for a table of ten
 * thousand rows whose lines may wrap (a problem's words, a heading's notes): each row is measured
 * once drawn (`measure` as its ref, with `data-index`), `estimate` standing in until then. The
 * table's margins stand for the rows out of view, so its head stays sticky in the scroller.
 */
export function useWindowedRows(
  scroller: RefObject<HTMLElement | null>,
  count: number,
  estimate: (index: number) => number,
): { shown: VirtualItem[]; margins: CSSProperties; placed(index: number): WindowedRow } {
  const virtualizer = useVirtualizer({ count, getScrollElement: () => scroller.current, estimateSize: estimate, overscan: 10 });
  const shown = virtualizer.getVirtualItems();
  const above = shown[0]?.start ?? 0;
  const below = virtualizer.getTotalSize() - (shown.at(-1)?.end ?? 0);
  return {
    shown,
    margins: { marginTop: above, marginBottom: below },
    // Numbered past the head's row, as `aria-rowcount` counts it.
    placed: (index) => ({ ref: virtualizer.measureElement, 'data-index': index, 'aria-rowindex': index + 2 }),
  };
}

/** What a drawn row spreads on its `tr`: measured once drawn, numbered for screen readers. */
export interface WindowedRow {
  ref(row: Element | null): void;
  'data-index': number;
  'aria-rowindex': number;
}
