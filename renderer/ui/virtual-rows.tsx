import { type CSSProperties, Fragment, type ReactNode, useRef } from 'react';
import { visibleRows } from './visible-rows.ts';
import { useScrollView } from './use-scroll-view.ts';

/** Where a row sits and its number in the list: spread on its `li`. */
export interface RowPlacement {
  'aria-setsize': number;
  'aria-posinset': number;
  style: CSSProperties;
}

interface VirtualRowsProps<T> {
  items: readonly T[];
  rowHeight: number;
  /** The list's name for screen readers ("Activity, newest first"). */
  label: string;
  keyOf(item: T): string;
  row(item: T, placement: RowPlacement): ReactNode;
}

/**
 * A scrolling list of rows `rowHeight` high that draws only the rows in view, so ten thousand cost
 * what twenty do (the activity log, the alerts).
 */
export function VirtualRows<T>({ items, rowHeight, label, keyOf, row }: VirtualRowsProps<T>) {
  const list = useRef<HTMLElement>(null);
  const view = useScrollView(list, 800);
  const { from, to } = visibleRows(items.length, rowHeight, view.top, view.height);
  const placement = (index: number): RowPlacement => ({
    'aria-setsize': items.length,
    'aria-posinset': index + 1,
    style: { top: index * rowHeight, height: rowHeight },
  });
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: the list scrolls, and the keyboard must be able to scroll it
    <section className="activity-list" ref={list} aria-label={label} tabIndex={0}>
      <ul style={{ height: items.length * rowHeight }}>
        {items.slice(from, to).map((item, offset) => (
          <Fragment key={keyOf(item)}>{row(item, placement(from + offset))}</Fragment>
        ))}
      </ul>
    </section>
  );
}
