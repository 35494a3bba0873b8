import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useMemo, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import type { TableSettings, TableColumn } from '../../shared/types.ts';
import { SEVERITY } from './panel-attention.ts';
import { columnWidth, fittedWidths, REASON_MIN_WIDTH, type TableItem, type TableRow } from './table-columns.ts';
import { pageFont, textMeasurer } from '../ui/text-width.ts';
import { useActiveRange, useScrollToActive } from '../ui/use-active-row.ts';
import { type CellStyles, TableGroupRow, TableLayoutRow, type RowActions, rowId } from './table-layout-row.tsx';
import { TableHeader } from './table-header.tsx';
import { useMultiSelect } from './use-multi-select.ts';

/** Every row has this height: ten thousand rows cost no measuring. */
export const TABLE_ROW_HEIGHT = 26;
const HEADER_HEIGHT = 28;
/** The table's text size, as table-layout.css sets it. */
const TABLE_FONT_SCALE = 0.86;

interface TableLayoutProps {
  items: readonly TableItem[];
  /** Every panel's row, searched or not: the names' and groups' widths are measured over these, so they hold while the operator types. */
  fitRows: readonly TableRow[];
  table: TableSettings;
  onTableChange(change: Partial<TableSettings>): void;
  selectedId: string | null;
  /** The panels selected together (two or more), or empty when only `selectedId` is. */
  marked: ReadonlySet<string>;
  onSelect(id: string): void;
  /** Several panels selected (Shift or Ctrl click, Shift+Up/Down, Ctrl+A); `focusId` is the one shown. */
  onMark(ids: readonly string[], focusId: string): void;
  /** Enter on a row: the operator wants to work in the panel (a signed-out one: log in). */
  onOpen(id: string): void;
  /** Right click or the context-menu key: the row menu, at this point of the window. */
  onOpenMenu(at: { x: number; y: number }): void;
  /** Mutes or unmutes a panel that has a reason: it leaves (or comes back to) "Needs attention". */
  onMute(id: string, muted: boolean): void;
  now: number;
  emptyText: string;
  /** Whether the keyboard is in the table. */
  onFocusChange(focused: boolean): void;
}

/**
 * The fleet as a dense table, one 28 px row per panel: a WAI-ARIA grid with one Tab stop;
 * Up/Down, Page Up/Down, Home/End move the selection (the panel is shown), Enter opens it. Only
 * the rows in view (and a few beyond) are in the page. The header sorts and resizes. Several
 * panels are selected as in the list: Shift or Ctrl (⌘) click, Shift+Up/Down, Ctrl+A; Esc goes back to one.
 */
export function TableLayout(props: TableLayoutProps) {
  const {
    items,
    fitRows,
    table,
    onTableChange,
    selectedId,
    marked,
    onSelect,
    onMark,
    onOpen,
    onOpenMenu,
    onMute,
    now,
    emptyText,
    onFocusChange,
  } = props;
  const scroller = useRef<HTMLDivElement>(null);
  const [dragged, setDragged] = useState<{ column: TableColumn; width: number } | null>(null);
  // Names and groups are as wide as their longest (a client's group whole), measured in the table's font (0.86em).
  const [measures] = useState(() => ({
    cell: textMeasurer(pageFont(TABLE_FONT_SCALE)),
    title: textMeasurer(pageFont(TABLE_FONT_SCALE, 600)),
  }));
  const fitted = useMemo(() => fittedWidths(fitRows, measures.cell, measures.title), [fitRows, measures]);
  const widthOf = (column: TableColumn) => (dragged?.column === column ? dragged.width : columnWidth(table, column, fitted));
  // One style object per cell of a column while the widths hold: the memoised rows compare them.
  const styles = useMemo<CellStyles>(() => {
    const width = (column: TableColumn) => (dragged?.column === column ? dragged.width : columnWidth(table, column, fitted));
    return Object.fromEntries(
      table.columns.map((column) => [
        column,
        column === 'reason' ? { flex: `1 1 ${width(column)}px`, minWidth: REASON_MIN_WIDTH } : { width: width(column) },
      ]),
    );
  }, [table, dragged, fitted]);
  const activeIndex = selectedId === null ? -1 : items.findIndex((item) => item.key === selectedId);
  const getItemKey = useCallback((index: number) => items[index]!.key, [items]);
  const getScrollElement = useCallback(() => scroller.current, []);
  const estimateSize = useCallback(() => TABLE_ROW_HEIGHT, []);
  const rangeExtractor = useActiveRange(activeIndex);
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement,
    estimateSize,
    overscan: 3,
    getItemKey,
    rangeExtractor,
    scrollMargin: HEADER_HEIGHT,
    // The rows are rendered in a task of their own, not inside the scroll event's.
    useFlushSync: false,
    initialRect: { width: 800, height: 600 },
  });
  useScrollToActive(virtualizer, selectedId, activeIndex);

  const rowFrom = (index: number, step: number) => {
    for (let at = index; at >= 0 && at < items.length; at += step) if (items[at]!.kind === 'row') return at;
    return -1;
  };
  const moveTo = (index: number, step: number) => {
    const clamped = Math.max(0, Math.min(items.length - 1, index));
    const found = rowFrom(clamped, step) >= 0 ? rowFrom(clamped, step) : rowFrom(clamped, -step);
    if (found >= 0) selection.chooseOne(items[found]!.key);
  };
  const selection = useMultiSelect({
    orderedIds: () => items.flatMap((item) => (item.kind === 'row' ? [item.key] : [])),
    selectedId,
    marked,
    onSelect,
    onMark,
  });
  const pageRows = () => Math.max(1, Math.floor((scroller.current?.clientHeight ?? 600) / TABLE_ROW_HEIGHT) - 2);
  const openMenu = (at: { x: number; y: number }) => onOpenMenu(at);
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (items.length === 0 || event.target !== event.currentTarget) return;
    if (event.key === 'ContextMenu' || (event.key === 'F10' && event.shiftKey)) {
      event.preventDefault();
      const box = selectedId === null ? undefined : document.getElementById(rowId(selectedId))?.getBoundingClientRect();
      if (box) openMenu({ x: box.left + 24, y: box.bottom - 8 });
      return;
    }
    if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === 'a') {
      event.preventDefault();
      selection.selectAll(selectedId);
      return;
    }
    if (event.shiftKey && !event.altKey && !event.ctrlKey && !event.metaKey && (event.key === 'ArrowDown' || event.key === 'ArrowUp')) {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      const next = activeIndex < 0 ? -1 : rowFrom(activeIndex + step, step);
      if (next >= 0) selection.selectRange(items[next]!.key);
      return;
    }
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    if (event.key === 'Escape' && marked.size > 1 && selectedId !== null) {
      event.preventDefault();
      selection.chooseOne(selectedId);
      return;
    }
    const active = items[activeIndex];
    const moves: Partial<Record<string, [number, number]>> = {
      ArrowDown: [activeIndex + 1, 1],
      ArrowUp: [activeIndex < 0 ? 0 : activeIndex - 1, -1],
      PageDown: [activeIndex + pageRows(), 1],
      PageUp: [activeIndex - pageRows(), -1],
      Home: [0, 1],
      End: [items.length - 1, -1],
    };
    const move = moves[event.key];
    if (move) {
      event.preventDefault();
      moveTo(move[0], move[1]);
    } else if (event.key === 'Enter' && selectedId !== null && activeIndex >= 0) {
      event.preventDefault();
      onOpen(selectedId);
    } else if (event.key === 'm' && active?.kind === 'row' && active.row.attention.severity !== SEVERITY.none) {
      // M mutes the selected panel (again: unmutes it), as its Mute button does.
      event.preventDefault();
      onMute(active.key, !active.row.panel.muted);
    }
  };
  // The rows are memoised: they get one stable object whose calls reach the newest props.
  const latest = useRef({ props, selection });
  latest.current = { props, selection };
  const actions = useMemo<RowActions>(
    () => ({
      select: (id, event) => {
        const { selection } = latest.current;
        if (event.shiftKey) selection.selectRange(id);
        else if (event.ctrlKey || event.metaKey) selection.toggle(id);
        else selection.chooseOne(id);
        // The keyboard goes on from the row clicked, as in the list.
        event.currentTarget.closest<HTMLElement>('[role="grid"]')?.focus();
      },
      open: (id) => latest.current.props.onOpen(id),
      menu: (id: string, event: MouseEvent) => {
        event.preventDefault();
        // A row outside the selection becomes the selection, as in a file manager.
        if (!latest.current.selection.isSelected(id)) latest.current.selection.chooseOne(id);
        latest.current.props.onOpenMenu({ x: event.clientX, y: event.clientY });
      },
      mute: (id, muted) => latest.current.props.onMute(id, muted),
    }),
    [],
  );

  if (items.length === 0) return <p className="list-layout-empty muted">{emptyText}</p>;
  // The reason shrinks (to REASON_MIN_WIDTH) before the table scrolls sideways, and grows into room to spare.
  const reasonSlack = table.columns.includes('reason') ? Math.max(0, widthOf('reason') - REASON_MIN_WIDTH) : 0;
  const total = table.columns.reduce((sum, column) => sum + widthOf(column), 0) - reasonSlack;
  const cellStyle = (column: TableColumn) => styles[column] ?? {};
  const rows = virtualizer.getVirtualItems();
  // Rows are keyed by slot (their index modulo a size above the rows in view): scrolled, a row
  // leaving the view becomes the one coming in, so React changes texts instead of building rows.
  // The selected row kept in the page out of view takes its own key when its slot is taken.
  const slots = Math.ceil((rows.length + 1) / 32) * 32;
  const taken = new Set<string>();
  const keyOf = (index: number, key: string) => {
    const slot = `slot-${index % slots}`;
    if (taken.has(slot)) return key;
    taken.add(slot);
    return slot;
  };
  return (
    // biome-ignore lint/a11y/useSemanticElements: a virtualised grid of absolutely placed rows, which table layout cannot be
    <div
      ref={scroller}
      className="table-layout"
      role="grid"
      aria-label="Panel table"
      aria-multiselectable="true"
      aria-rowcount={items.length + 1}
      tabIndex={0}
      aria-activedescendant={activeIndex >= 0 ? rowId(selectedId!) : undefined}
      onKeyDown={onKeyDown}
      onFocus={() => onFocusChange(true)}
      onBlur={() => onFocusChange(false)}
    >
      {/* biome-ignore lint/a11y/useSemanticElements: part of the virtualised grid */}
      <div role="rowgroup" className="table-layout-header" style={{ minWidth: total }}>
        <TableHeader
          table={table}
          onChange={onTableChange}
          widthOf={widthOf}
          cellStyle={cellStyle}
          onDragWidth={(column, width) => setDragged(width === null ? null : { column, width })}
        />
      </div>
      {/* The rows' height alone: the virtualizer's total leaves out the header (its scrollMargin). Less, and the
          last rows, placed below the body's end, grew the scroll height once drawn (the end took two scrolls). */}
      {/* biome-ignore lint/a11y/useSemanticElements: part of the virtualised grid */}
      <div role="rowgroup" className="table-layout-body" style={{ height: virtualizer.getTotalSize(), minWidth: total }}>
        {rows.map((virtual) => {
          const item = items[virtual.index]!;
          const top = virtual.start - HEADER_HEIGHT;
          const key = keyOf(virtual.index, item.key);
          return item.kind === 'group' ? (
            <TableGroupRow key={key} item={item} top={top} rowIndex={virtual.index + 2} width={total} />
          ) : (
            <TableLayoutRow
              key={key}
              item={item}
              top={top}
              rowIndex={virtual.index + 2}
              selected={selection.isSelected(item.key)}
              active={item.key === selectedId}
              columns={table.columns}
              styles={styles}
              now={now}
              actions={actions}
            />
          );
        })}
      </div>
    </div>
  );
}
