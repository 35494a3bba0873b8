import { type CSSProperties, useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import { COLUMN_WIDTH } from '../../shared/table-limits.ts';
import { TABLE_COLUMNS, type TableSettings, type TableColumn } from '../../shared/types.ts';
import { COLUMNS } from './table-columns.ts';

interface TableHeaderProps {
  table: TableSettings;
  onChange(change: Partial<TableSettings>): void;
  /** While a column is dragged: its width now, before the drag is kept. */
  onDragWidth(column: TableColumn, width: number | null): void;
  widthOf(column: TableColumn): number;
  /** The cell's width (the reason's: its share of the room), as the rows' cells have it. */
  cellStyle(column: TableColumn): CSSProperties;
}

/**
 * The table's header row: a click on a column's name sorts by it (again: the other way), the
 * handle on its right edge drags its width (kept when let go; a double click goes back to the
 * default, arrow keys step it).
 */
export function TableHeader({ table, onChange, onDragWidth, widthOf, cellStyle }: TableHeaderProps) {
  const drag = useRef<{ column: TableColumn; startX: number; startWidth: number; width: number } | null>(null);
  const keep = (column: TableColumn, width: number | null) => {
    const widths = { ...table.widths };
    if (width === null) delete widths[column];
    else widths[column] = Math.round(Math.max(COLUMN_WIDTH.min, Math.min(COLUMN_WIDTH.max, width)));
    onChange({ widths });
  };
  const onPointerDown = (column: TableColumn, event: ReactPointerEvent<HTMLElement>) => {
    event.preventDefault();
    event.currentTarget.setPointerCapture(event.pointerId);
    drag.current = { column, startX: event.clientX, startWidth: widthOf(column), width: widthOf(column) };
  };
  const onPointerMove = (event: ReactPointerEvent<HTMLElement>) => {
    const current = drag.current;
    if (!current) return;
    current.width = Math.max(COLUMN_WIDTH.min, Math.min(COLUMN_WIDTH.max, current.startWidth + event.clientX - current.startX));
    onDragWidth(current.column, current.width);
  };
  const onPointerUp = () => {
    const current = drag.current;
    drag.current = null;
    if (!current) return;
    onDragWidth(current.column, null);
    if (current.width !== current.startWidth) keep(current.column, current.width);
  };
  return (
    // biome-ignore lint/a11y/useSemanticElements lint/a11y/useFocusableInteractive: the header row of the virtualised grid
    <div role="row" className="table-layout-head">
      {table.columns.map((column) => {
        const sorted = table.sortBy === column;
        return (
          // biome-ignore lint/a11y/useSemanticElements lint/a11y/useFocusableInteractive: a header cell of the virtualised grid; its button takes the keyboard
          <div
            key={column}
            role="columnheader"
            className={`fleet-cell col-${column}`}
            style={cellStyle(column)}
            aria-sort={sorted ? (table.descending ? 'descending' : 'ascending') : 'none'}
          >
            <button
              type="button"
              className="column-sort"
              title={column === 'state' ? 'Sort by state: the worst first' : `Sort by ${COLUMNS[column].title.toLowerCase()}`}
              onClick={() => onChange(sorted ? { descending: !table.descending } : { sortBy: column, descending: false })}
            >
              {COLUMNS[column].title}
              {sorted && <span aria-hidden="true">{table.descending ? ' ▾' : ' ▴'}</span>}
            </button>
            <span
              className="column-resize"
              aria-hidden="true"
              onPointerDown={(event) => onPointerDown(column, event)}
              onPointerMove={onPointerMove}
              onPointerUp={onPointerUp}
              onPointerCancel={onPointerUp}
              onDoubleClick={() => keep(column, null)}
            />
          </div>
        );
      })}
    </div>
  );
}

/** Which columns show, and whether rows are grouped: a menu of check boxes under a button. */
export function ColumnMenu({ table, onChange }: { table: TableSettings; onChange(change: Partial<TableSettings>): void }) {
  const [open, setOpen] = useState(false);
  const shown = new Set(table.columns);
  const toggle = (column: TableColumn) => {
    // In the order offered, so a column put back lands where it was; the name always stays.
    const columns = TABLE_COLUMNS.filter((each) => (each === column ? !shown.has(each) : shown.has(each)));
    onChange({ columns });
  };
  return (
    <details className="column-menu" open={open} onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary className="button-small">Columns</summary>
      <fieldset>
        <legend>Columns shown</legend>
        {TABLE_COLUMNS.map((column) => (
          <label key={column}>
            <input type="checkbox" checked={shown.has(column)} disabled={column === 'name'} onChange={() => toggle(column)} />
            {COLUMNS[column].title}
          </label>
        ))}
        {(['group', 'file'] as const).map((by) => {
          const checked = table.grouped && (table.groupBy ?? 'group') === by;
          return (
            <label key={by} className="column-menu-group">
              <input
                type="checkbox"
                checked={checked}
                onChange={() => onChange(checked ? { grouped: false } : { grouped: true, groupBy: by })}
              />
              {by === 'group' ? 'Group rows by group' : 'Group rows by fleet file'}
            </label>
          );
        })}
      </fieldset>
    </details>
  );
}
