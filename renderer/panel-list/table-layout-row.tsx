import { type CSSProperties, memo, type MouseEvent } from 'react';
import type { TableColumn } from '../../shared/types.ts';
import { SEVERITY } from './panel-attention.ts';
import { COLUMNS, FIGURE_COLUMNS, reasonInFull, staleText, type TableItem, type TableRow } from './table-columns.ts';

/**
 * One row of the table layout (table-layout.tsx), memoised: while the operator scrolls, the rows
 * that stay in view are not rendered again, and a row that leaves takes the place of the one that
 * comes in (the table keys rows by slot), so React changes its texts instead of building it anew.
 */

export const rowId = (id: string) => `fleet-row-${id}`;

/** What the table's rows do, stable across renders (the table keeps them in a ref). */
export interface RowActions {
  select(id: string, event: MouseEvent<HTMLElement>): void;
  open(id: string): void;
  menu(id: string, event: MouseEvent<HTMLElement>): void;
  mute(id: string, muted: boolean): void;
}

/** Each shown column's cell style (its width), one object per column while the widths hold. */
export type CellStyles = Readonly<Partial<Record<TableColumn, CSSProperties>>>;

interface RowProps {
  item: Extract<TableItem, { kind: 'row' }>;
  /** Where the row is placed (pixels from the body's top), and its place in the grid for screen readers. */
  top: number;
  rowIndex: number;
  /** In the selection (alone or with others). */
  selected: boolean;
  /** The panel shown, where the keyboard is. */
  active: boolean;
  columns: readonly TableColumn[];
  styles: CellStyles;
  now: number;
  actions: RowActions;
}

/** What a cell says in full when hovered: the reason (often cut), the state under a mute, a stale figure's age. */
function cellTitle(row: TableRow, column: TableColumn, stale: string | null, now: number): string | undefined {
  if (column === 'reason') return reasonInFull(row, now) || undefined;
  if (stale && FIGURE_COLUMNS.has(column)) return `Read ${stale.replace(/^as of /, '')}: the last check did not read it anew`;
  if (column === 'state' && row.panel.muted) return `${row.attention.word}, muted: left out of Needs attention`;
  return undefined;
}

/** The cell of a state: a shape in its colour and a word, so neither colour nor shape alone carries it. */
function StateCell({ row }: { row: TableRow }) {
  const { tone, word, state } = row.attention;
  // Muted: the word says so (the shape keeps the state's tone), the row is greyed, the reason stays.
  return (
    <>
      <span className={`state-mark tone-${tone} state-${state}`} aria-hidden="true" />
      {row.panel.muted ? <span className="muted-mark">Muted</span> : word}
    </>
  );
}

export const TableLayoutRow = memo(function TableLayoutRow({
  item,
  top,
  rowIndex,
  selected,
  active,
  columns,
  styles,
  now,
  actions,
}: RowProps) {
  const { row } = item;
  const { panel } = row;
  const stale = staleText(row, now);
  return (
    // biome-ignore lint/a11y/useSemanticElements lint/a11y/useFocusableInteractive lint/a11y/useKeyWithClickEvents: the grid takes the keyboard for all its rows (aria-activedescendant)
    <div
      id={rowId(panel.id)}
      role="row"
      aria-selected={selected}
      aria-rowindex={rowIndex}
      className={`fleet-row${active ? ' is-active' : ''}${panel.muted ? ' is-muted' : ''}${panel.colour ? ` colour-${panel.colour}` : ''}`}
      style={{ transform: `translateY(${top}px)` }}
      onClick={(event) => actions.select(panel.id, event)}
      onDoubleClick={() => actions.open(panel.id)}
      onContextMenu={(event) => actions.menu(panel.id, event)}
    >
      {columns.map((column) => (
        // biome-ignore lint/a11y/useSemanticElements lint/a11y/useFocusableInteractive: the grid takes the keyboard
        <div
          key={column}
          role="gridcell"
          className={`fleet-cell col-${column}${COLUMNS[column].numeric ? ' is-number' : ''}${stale && FIGURE_COLUMNS.has(column) ? ' is-stale' : ''}`}
          style={styles[column]}
          title={cellTitle(row, column, stale, now)}
        >
          {column === 'state' ? <StateCell row={row} /> : COLUMNS[column].text(row, now)}
          {column === 'reason' && row.attention.severity !== SEVERITY.none && (
            <button
              type="button"
              className="mute-button"
              tabIndex={-1}
              onClick={(event) => {
                event.stopPropagation();
                actions.mute(panel.id, !panel.muted);
              }}
            >
              {panel.muted ? 'Unmute' : 'Mute'}
            </button>
          )}
        </div>
      ))}
    </div>
  );
});

interface GroupProps {
  item: Extract<TableItem, { kind: 'group' }>;
  top: number;
  rowIndex: number;
  width: number;
}

/** A group's heading row, when the table is grouped. */
export const TableGroupRow = memo(function TableGroupRow({ item, top, rowIndex, width }: GroupProps) {
  return (
    // biome-ignore lint/a11y/useSemanticElements lint/a11y/useFocusableInteractive: the grid takes the keyboard for all its rows (aria-activedescendant)
    <div role="row" className="fleet-group" style={{ transform: `translateY(${top}px)` }} aria-rowindex={rowIndex}>
      {/* biome-ignore lint/a11y/useSemanticElements lint/a11y/useFocusableInteractive: the grid takes the keyboard */}
      <div role="gridcell" className="fleet-cell" style={{ width }}>
        {item.name} · {item.count}
        {item.attention > 0 && <span className="section-attention"> · {item.attention} need attention</span>}
      </div>
    </div>
  );
});
