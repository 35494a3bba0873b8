import type { ServiceSummary } from '../../shared/services.ts';
import { serviceKey } from './service-selection.ts';
import { useSelectableRows } from './use-selectable-rows.ts';
import { serviceActionKey, type ServiceActionState } from '../window/service-action-store.ts';
import { ServiceRow } from './service-row.tsx';

/** Each row's height in pixels: fixed, so the table needs no measuring and holds only the rows in view. */
const ROW_HEIGHT = 34;

interface ServiceTableProps {
  panelId: string;
  rows: readonly ServiceSummary[];
  selected: ReadonlySet<string>;
  /** Each service's last action in this window, by `serviceActionKey`. */
  actions: ReadonlyMap<string, ServiceActionState>;
  onSelect(next: ReadonlySet<string>): void;
  /** The row menu of this service (or of the selection it is in), at this point of the window. */
  onOpenMenu(service: ServiceSummary, at: { x: number; y: number }): void;
}

/**
 * The table, only the rows in view in the page (margins above and below stand for the others).
 * A selection as in a file manager: a click on a row, Ctrl (⌘) click to add, Shift click or
 * Shift+Up/Down for a range, a checkbox per row, Ctrl+A or the heading's checkbox for every row
 * shown, Esc to clear. Up/Down move the keyboard from row to row (one Tab stop: the row's
 * checkbox and its Actions button); right click, the context-menu key or Shift+F10 open the row
 * menu. Rows are memoised: a click draws again only the rows whose selection or action changed.
 */
export function ServiceTable({ panelId, rows, selected, actions, onSelect, onOpenMenu }: ServiceTableProps) {
  const { scroller, handlers, onKeyDown, onFocus, shown, activeIndex, margins, all, toggleAll } = useSelectableRows({
    rows,
    keyOf: serviceKey,
    rowHeight: ROW_HEIGHT,
    selected,
    onSelect,
    onOpenMenu,
  });
  return (
    // The table scrolls itself, its heading row staying at the top.
    // biome-ignore lint/a11y/noNoninteractiveTabindex lint/a11y/noStaticElementInteractions: a scrolling region must take the keyboard to be scrolled (axe: scrollable-region-focusable); the rows' keys bubble to it
    <div ref={scroller} className="service-scroller" tabIndex={0} onKeyDown={onKeyDown} onFocus={onFocus}>
      {/* The rows out of view are margins: the table holds only those in view, at their place. */}
      <table className="service-table" aria-label="Services" aria-rowcount={rows.length + 1} style={margins}>
        <ServiceTableHead count={rows.length} all={all} onToggleAll={toggleAll} fleet={false} />
        <tbody>
          {shown.map((virtual) => {
            const service = rows[virtual.index]!;
            const key = serviceKey(service);
            return (
              <ServiceRow
                key={key}
                service={service}
                index={virtual.index}
                selected={selected.has(key)}
                tabbable={virtual.index === activeIndex}
                action={actions.get(serviceActionKey(panelId, service.projectName, service.name))}
                handlers={handlers}
              />
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

interface ServiceTableHeadProps {
  /** How many services are shown, for the checkbox that selects them all. */
  count: number;
  all: 'all' | 'some' | 'none';
  onToggleAll(): void;
  /** The fleet's table: with the panel, CPU, memory and read columns (service-row.tsx draws their cells). */
  fleet: boolean;
}

/** The heading row of a services table: a panel's, or the fleet's with its own columns. */
export function ServiceTableHead({ count, all, onToggleAll, fleet }: ServiceTableHeadProps) {
  return (
    <thead>
      <tr aria-rowindex={1}>
        <th scope="col" className="service-check">
          <input
            type="checkbox"
            aria-label={`Select all ${count} shown`}
            checked={all === 'all'}
            ref={(box) => {
              if (box) box.indeterminate = all === 'some';
            }}
            onChange={onToggleAll}
          />
        </th>
        <th scope="col" className="service-state">
          State
        </th>
        {fleet && (
          <th scope="col" className="fleet-panel">
            Panel
          </th>
        )}
        <th scope="col">Project</th>
        <th scope="col">Service</th>
        <th scope="col" className="service-type">
          Type
        </th>
        <th scope="col" className="service-replicas">
          Replicas
        </th>
        {fleet && (
          <>
            <th scope="col" className="fleet-figure">
              CPU
            </th>
            <th scope="col" className="fleet-figure fleet-memory">
              Memory
            </th>
            <th scope="col" className="fleet-read">
              Read
            </th>
          </>
        )}
        <th scope="col" className="service-phase">
          Last action
        </th>
        <th scope="col" className="service-menu">
          <span className="visually-hidden">Actions</span>
        </th>
      </tr>
    </thead>
  );
}
