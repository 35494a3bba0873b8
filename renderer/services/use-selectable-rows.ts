import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useMemo, useRef, useState, type FocusEvent, type KeyboardEvent } from 'react';
import { NO_SERVICES, type SelectionKey, shownSelection, toggled, withRange, withShown } from './service-selection.ts';

/** What a row tells its table: made once by the table, so a memoised row never draws again for them. */
export interface RowHandlers {
  /** A click on the row (not on its checkbox or button): on its own, Ctrl to add, Shift for a range. */
  click(index: number, event: { shiftKey: boolean; ctrlKey: boolean; metaKey: boolean }): void;
  /** Its checkbox: in or out of the selection, Shift for a range. */
  check(index: number, event: { shiftKey: boolean; ctrlKey: boolean; metaKey: boolean }): void;
  /** Its row menu, at this point of the window. */
  menu(index: number, at: { x: number; y: number }): void;
}

interface SelectableRowsOptions<T> {
  rows: readonly T[];
  /** A row's key in the selection and the virtualiser; null for a heading, which is never selected. */
  keyOf: SelectionKey<T>;
  rowHeight: number;
  selected: ReadonlySet<string>;
  onSelect(next: ReadonlySet<string>): void;
  /** The row menu of this row, at this point of the window. */
  onOpenMenu(row: T, at: { x: number; y: number }): void;
}

/** Where Up/Down, Page Up/Down, Home and End go from `current`; null for any other key. */
function movedTo(key: string, current: number, count: number, pageRows: number): number | null {
  const moves: Partial<Record<string, number>> = {
    ArrowDown: current + 1,
    ArrowUp: current - 1,
    PageDown: current + pageRows,
    PageUp: current - pageRows,
    Home: 0,
    End: count - 1,
  };
  const to = moves[key];
  return to === undefined ? null : Math.max(0, Math.min(count - 1, to));
}

/**
 * What the services tables share (a panel's, and the fleet's across panels): only the rows in view
 * in the page (margins above and below stand for the others, the heading row inside the scroller),
 * and a selection as in a file manager: a click on a row, Ctrl (⌘) click to add, Shift click or
 * Shift+Up/Down for a range, Ctrl+A for every row shown, Esc to clear. Up/Down move the keyboard
 * from row to row (one Tab stop: the row's controls); right click, the context-menu key or
 * Shift+F10 open the row menu.
 */
export function useSelectableRows<T>({ rows, keyOf, rowHeight, selected, onSelect, onOpenMenu }: SelectableRowsOptions<T>) {
  const scroller = useRef<HTMLDivElement>(null);
  const getScrollElement = useCallback(() => scroller.current, []);
  const estimateSize = useCallback(() => rowHeight, [rowHeight]);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement,
    estimateSize,
    // Rows keep their index as the virtualiser's key: their height is fixed, so nothing measured is
    // kept by key, and a key per row would make it walk every row again at each change of the rows.
    overscan: 8,
    scrollMargin: rowHeight,
  });
  const [active, setActive] = useState(0);
  const activeIndex = Math.min(active, rows.length - 1);
  // Where a Shift range runs from: the row last chosen on its own.
  const anchor = useRef(0);
  // A row the keyboard moved to: focused once it is drawn.
  const focusPending = useRef<number | null>(null);

  // The newest props and state, for handlers made once (the memoised rows keep theirs).
  const latest = useRef({ rows, selected, onSelect, onOpenMenu, keyOf });
  latest.current = { rows, selected, onSelect, onOpenMenu, keyOf };

  const rowElement = (index: number) => scroller.current?.querySelector<HTMLElement>(`tr[data-index="${index}"]`) ?? null;
  useEffect(() => {
    if (focusPending.current === null) return;
    const row = rowElement(focusPending.current);
    if (!row) return;
    focusPending.current = null;
    row.querySelector<HTMLElement>('input')?.focus();
  });
  const moveTo = useCallback(
    (index: number) => {
      focusPending.current = index;
      setActive(index);
      virtualizer.scrollToIndex(index, { align: 'auto' });
    },
    [virtualizer],
  );

  const handlers = useMemo<RowHandlers>(() => {
    const choose = (index: number, event: { shiftKey: boolean; ctrlKey: boolean; metaKey: boolean }, alone: boolean) => {
      const { rows: shown, selected: now, onSelect: select, keyOf: key } = latest.current;
      const rowKey = key(shown[index]!);
      setActive(index);
      if (event.shiftKey) return select(withRange(event.ctrlKey || event.metaKey ? now : NO_SERVICES, shown, anchor.current, index, key));
      anchor.current = index;
      if (rowKey === null) return;
      select(alone && !(event.ctrlKey || event.metaKey) ? new Set([rowKey]) : toggled(now, rowKey));
    };
    return {
      click: (index, event) => choose(index, event, true),
      check: (index, event) => choose(index, event, false),
      menu: (index, at) => {
        setActive(index);
        latest.current.onOpenMenu(latest.current.rows[index]!, at);
      },
    };
  }, []);

  /** The row of the control the keyboard is on; -1 on the scroller itself. */
  const rowOf = (target: EventTarget) => Number((target as Element).closest('tr[data-index]')?.getAttribute('data-index') ?? -1);
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (rows.length === 0 || event.altKey) return;
    const current = rowOf(event.target) < 0 ? activeIndex : rowOf(event.target);
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'a') {
      event.preventDefault();
      return onSelect(withShown(selected, rows, true, keyOf));
    }
    if (event.key === 'ContextMenu' || (event.key === 'F10' && event.shiftKey)) {
      event.preventDefault();
      const box = rowElement(current)?.getBoundingClientRect() ?? scroller.current?.getBoundingClientRect();
      if (box) handlers.menu(current, { x: box.left + 40, y: box.top + rowHeight - 6 });
      return;
    }
    if (event.ctrlKey || event.metaKey) return;
    if (event.key === 'Escape' && selected.size > 0) {
      event.preventDefault();
      return onSelect(NO_SERVICES);
    }
    const pageRows = Math.max(1, Math.floor((scroller.current?.clientHeight ?? rowHeight) / rowHeight) - 2);
    // From the scroller itself, the keyboard goes to the first row in view.
    const from = event.target === scroller.current ? (virtualizer.getVirtualItems()[0]?.index ?? 0) - 1 : current;
    const to = movedTo(event.key, from, rows.length, pageRows);
    if (to === null) return;
    event.preventDefault();
    moveTo(to);
    if (event.shiftKey) onSelect(withRange(NO_SERVICES, rows, anchor.current, to, keyOf));
    else anchor.current = to;
  };

  // A row's control focused by a click or Tab is the row the keyboard is on.
  const onFocus = (event: FocusEvent<HTMLDivElement>) => {
    if (rowOf(event.target) >= 0) setActive(rowOf(event.target));
  };

  const shown = virtualizer.getVirtualItems();
  const above = (shown[0]?.start ?? rowHeight) - rowHeight;
  const below = virtualizer.getTotalSize() - ((shown.at(-1)?.end ?? rowHeight) - rowHeight);
  return {
    scroller,
    handlers,
    onKeyDown,
    onFocus,
    shown,
    activeIndex,
    /** The margins that stand for the rows out of view. */
    margins: { marginTop: above, marginBottom: below },
    /** Whether every row shown is selected, some are, or none: the heading's checkbox. */
    all: shownSelection(selected, rows, keyOf),
    /** The heading's checkbox changed: every row shown in, or all out. */
    toggleAll: () => onSelect(withShown(selected, rows, shownSelection(selected, rows, keyOf) !== 'all', keyOf)),
  };
}
