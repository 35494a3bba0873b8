import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import type { BoardTable, TableColumn } from '../../shared/types.ts';
import { SEVERITY } from '../panel-attention.ts';
import { COLUMNS, columnWidth, REASON_MIN_WIDTH, type TableItem, type TableRow } from '../table-columns.ts';
import { useActiveRange, useScrollToActive } from '../use-active-row.ts';
import { TableHeader } from './table-header.tsx';

/** Every row has this height: ten thousand rows cost no measuring. */
export const TABLE_ROW_HEIGHT = 26;
const HEADER_HEIGHT = 28;

interface FleetTableProps {
  items: readonly TableItem[];
  table: BoardTable;
  onTableChange(change: Partial<BoardTable>): void;
  selectedId: string | null;
  onSelect(id: string): void;
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

const rowId = (id: string) => `fleet-row-${id}`;

/** What a cell says in full when hovered: the reason (often cut), the state under a mute. */
function cellTitle(row: TableRow, column: TableColumn): string | undefined {
  if (column === 'reason') return row.attention.reason ?? undefined;
  if (column === 'state' && row.panel.muted) return `${row.attention.word}, muted: left out of Needs attention`;
  return undefined;
}

/** The cell of a state: a shape in its colour and a word, so neither colour nor shape alone carries it. */
function StateCell({ row }: { row: TableRow }) {
  const { tone, word } = row.attention;
  // Muted: the word says so (the shape keeps the state's tone), the row is greyed, the reason stays.
  return (
    <>
      <span className={`state-mark tone-${tone}`} aria-hidden="true" />
      {row.panel.muted ? <span className="muted-mark">Muted</span> : word}
    </>
  );
}

/**
 * The fleet as a dense table, one 28 px row per panel: a WAI-ARIA grid with one Tab stop;
 * Up/Down, Page Up/Down, Home/End move the selection (the panel is shown), Enter opens it. Only
 * the rows in view (and a few beyond) are in the page. The header sorts and resizes.
 */
export function FleetTable(props: FleetTableProps) {
  const { items, table, onTableChange, selectedId, onSelect, onOpen, onOpenMenu, onMute, now, emptyText, onFocusChange } = props;
  const scroller = useRef<HTMLDivElement>(null);
  const [dragged, setDragged] = useState<{ column: TableColumn; width: number } | null>(null);
  const widthOf = (column: TableColumn) => (dragged?.column === column ? dragged.width : columnWidth(table, column));
  const activeIndex = selectedId === null ? -1 : items.findIndex((item) => item.key === selectedId);
  const getItemKey = useCallback((index: number) => items[index]!.key, [items]);
  const getScrollElement = useCallback(() => scroller.current, []);
  const estimateSize = useCallback(() => TABLE_ROW_HEIGHT, []);
  const rangeExtractor = useActiveRange(activeIndex);
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement,
    estimateSize,
    overscan: 8,
    getItemKey,
    rangeExtractor,
    scrollMargin: HEADER_HEIGHT,
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
    if (found >= 0) onSelect(items[found]!.key);
  };
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
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
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
  const onContextMenu = (id: string, event: MouseEvent) => {
    event.preventDefault();
    onSelect(id);
    openMenu({ x: event.clientX, y: event.clientY });
  };

  if (items.length === 0) return <p className="panel-list-empty muted">{emptyText}</p>;
  // The reason shrinks (to REASON_MIN_WIDTH) before the table scrolls sideways, and grows into room to spare.
  const reasonSlack = table.columns.includes('reason') ? Math.max(0, widthOf('reason') - REASON_MIN_WIDTH) : 0;
  const total = table.columns.reduce((sum, column) => sum + widthOf(column), 0) - reasonSlack;
  const cellStyle = (column: TableColumn) =>
    column === 'reason' ? { flex: `1 1 ${widthOf(column)}px`, minWidth: REASON_MIN_WIDTH } : { width: widthOf(column) };
  const rows = virtualizer.getVirtualItems();
  return (
    // biome-ignore lint/a11y/useSemanticElements: a virtualised grid of absolutely placed rows, which table layout cannot be
    <div
      ref={scroller}
      className="fleet-table"
      role="grid"
      aria-label="Panel table"
      aria-rowcount={items.length + 1}
      tabIndex={0}
      aria-activedescendant={activeIndex >= 0 ? rowId(selectedId!) : undefined}
      onKeyDown={onKeyDown}
      onFocus={() => onFocusChange(true)}
      onBlur={() => onFocusChange(false)}
    >
      {/* biome-ignore lint/a11y/useSemanticElements: part of the virtualised grid */}
      <div role="rowgroup" className="fleet-table-header" style={{ minWidth: total }}>
        <TableHeader
          table={table}
          onChange={onTableChange}
          widthOf={widthOf}
          cellStyle={cellStyle}
          onDragWidth={(column, width) => setDragged(width === null ? null : { column, width })}
        />
      </div>
      {/* biome-ignore lint/a11y/useSemanticElements: part of the virtualised grid */}
      <div role="rowgroup" className="fleet-table-body" style={{ height: virtualizer.getTotalSize() - HEADER_HEIGHT, minWidth: total }}>
        {rows.map((virtual) => {
          const item = items[virtual.index]!;
          const top = virtual.start - HEADER_HEIGHT;
          if (item.kind === 'group') {
            return (
              // biome-ignore lint/a11y/useSemanticElements lint/a11y/useFocusableInteractive: the grid takes the keyboard for all its rows (aria-activedescendant)
              <div
                key={item.key}
                role="row"
                className="fleet-group"
                style={{ transform: `translateY(${top}px)` }}
                aria-rowindex={virtual.index + 2}
              >
                {/* biome-ignore lint/a11y/useSemanticElements lint/a11y/useFocusableInteractive: the grid takes the keyboard */}
                <div role="gridcell" className="fleet-cell" style={{ width: total }}>
                  {item.name} · {item.count}
                  {item.attention > 0 && <span className="section-attention"> · {item.attention} need attention</span>}
                </div>
              </div>
            );
          }
          const { row } = item;
          const { panel } = row;
          const selected = panel.id === selectedId;
          return (
            // biome-ignore lint/a11y/useSemanticElements lint/a11y/useFocusableInteractive lint/a11y/useKeyWithClickEvents: the grid takes the keyboard for all its rows (aria-activedescendant)
            <div
              key={item.key}
              id={rowId(panel.id)}
              role="row"
              aria-selected={selected}
              aria-rowindex={virtual.index + 2}
              className={`fleet-row${selected ? ' is-active' : ''}${panel.muted ? ' is-muted' : ''}${panel.colour ? ` colour-${panel.colour}` : ''}`}
              style={{ transform: `translateY(${top}px)` }}
              onClick={(event) => {
                onSelect(panel.id);
                // The keyboard goes on from the row clicked, as in the list.
                event.currentTarget.closest<HTMLElement>('[role="grid"]')?.focus();
              }}
              onDoubleClick={() => onOpen(panel.id)}
              onContextMenu={(event) => onContextMenu(panel.id, event)}
            >
              {table.columns.map((column) => (
                // biome-ignore lint/a11y/useSemanticElements lint/a11y/useFocusableInteractive: the grid takes the keyboard
                <div
                  key={column}
                  role="gridcell"
                  className={`fleet-cell col-${column}${COLUMNS[column].numeric ? ' is-number' : ''}`}
                  style={cellStyle(column)}
                  title={cellTitle(row, column)}
                >
                  {column === 'state' ? <StateCell row={row} /> : COLUMNS[column].text(row, now)}
                  {column === 'reason' && row.attention.severity !== SEVERITY.none && (
                    <button
                      type="button"
                      className="mute-button"
                      tabIndex={-1}
                      onClick={(event) => {
                        event.stopPropagation();
                        onMute(panel.id, !panel.muted);
                      }}
                    >
                      {panel.muted ? 'Unmute' : 'Mute'}
                    </button>
                  )}
                </div>
              ))}
            </div>
          );
        })}
      </div>
    </div>
  );
}
