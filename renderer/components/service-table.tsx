import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useMemo, useRef, useState, type FocusEvent, type KeyboardEvent } from 'react';
import type { ServiceSummary } from '../../shared/services.ts';
import { NO_SERVICES, serviceKey, shownSelection, toggled, withRange, withShown } from '../service-selection.ts';
import { serviceActionKey, type ServiceActionState } from '../window-store.ts';
import { ServiceRow, type RowHandlers } from './service-row.tsx';

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
 * The table, only the rows in view in the page (margins above and below stand for the others).
 * A selection as in a file manager: a click on a row, Ctrl (⌘) click to add, Shift click or
 * Shift+Up/Down for a range, a checkbox per row, Ctrl+A or the heading's checkbox for every row
 * shown, Esc to clear. Up/Down move the keyboard from row to row (one Tab stop: the row's
 * checkbox and its Actions button); right click, the context-menu key or Shift+F10 open the row
 * menu. Rows are memoised: a click draws again only the rows whose selection or action changed.
 */
export function ServiceTable({ panelId, rows, selected, actions, onSelect, onOpenMenu }: ServiceTableProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const getScrollElement = useCallback(() => scroller.current, []);
  const estimateSize = useCallback(() => ROW_HEIGHT, []);
  const getItemKey = useCallback((index: number) => serviceKey(rows[index]!), [rows]);
  // The heading row sits above the rows inside the scroller.
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement,
    estimateSize,
    getItemKey,
    overscan: 8,
    scrollMargin: ROW_HEIGHT,
  });
  const [active, setActive] = useState(0);
  const activeIndex = Math.min(active, rows.length - 1);
  // Where a Shift range runs from: the row last chosen on its own.
  const anchor = useRef(0);
  // A row the keyboard moved to: focused once it is drawn.
  const focusPending = useRef<number | null>(null);

  // The newest props and state, for handlers made once (the memoised rows keep theirs).
  const latest = useRef({ rows, selected, onSelect, onOpenMenu, activeIndex });
  latest.current = { rows, selected, onSelect, onOpenMenu, activeIndex };

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
      const { rows: shown, selected: now, onSelect: select } = latest.current;
      const key = serviceKey(shown[index]!);
      setActive(index);
      if (event.shiftKey) return select(withRange(event.ctrlKey || event.metaKey ? now : NO_SERVICES, shown, anchor.current, index));
      anchor.current = index;
      select(alone && !(event.ctrlKey || event.metaKey) ? new Set([key]) : toggled(now, key));
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
      return onSelect(withShown(selected, rows, true));
    }
    if (event.key === 'ContextMenu' || (event.key === 'F10' && event.shiftKey)) {
      event.preventDefault();
      const box = rowElement(current)?.getBoundingClientRect() ?? scroller.current?.getBoundingClientRect();
      if (box) handlers.menu(current, { x: box.left + 40, y: box.top + ROW_HEIGHT - 6 });
      return;
    }
    if (event.ctrlKey || event.metaKey) return;
    if (event.key === 'Escape' && selected.size > 0) {
      event.preventDefault();
      return onSelect(NO_SERVICES);
    }
    const pageRows = Math.max(1, Math.floor((scroller.current?.clientHeight ?? ROW_HEIGHT) / ROW_HEIGHT) - 2);
    // From the scroller itself, the keyboard goes to the first row in view.
    const from = event.target === scroller.current ? (virtualizer.getVirtualItems()[0]?.index ?? 0) - 1 : current;
    const to = movedTo(event.key, from, rows.length, pageRows);
    if (to === null) return;
    event.preventDefault();
    moveTo(to);
    if (event.shiftKey) onSelect(withRange(NO_SERVICES, rows, anchor.current, to));
    else anchor.current = to;
  };

  // A row's control focused by a click or Tab is the row the keyboard is on.
  const onFocus = (event: FocusEvent<HTMLDivElement>) => {
    if (rowOf(event.target) >= 0) setActive(rowOf(event.target));
  };

  const shown = virtualizer.getVirtualItems();
  const above = (shown[0]?.start ?? ROW_HEIGHT) - ROW_HEIGHT;
  const below = virtualizer.getTotalSize() - ((shown.at(-1)?.end ?? ROW_HEIGHT) - ROW_HEIGHT);
  const all = shownSelection(selected, rows);
  return (
    // The table scrolls itself, its heading row staying at the top.
    // biome-ignore lint/a11y/noNoninteractiveTabindex lint/a11y/noStaticElementInteractions: a scrolling region must take the keyboard to be scrolled (axe: scrollable-region-focusable); the rows' keys bubble to it
    <div ref={scroller} className="service-scroller" tabIndex={0} onKeyDown={onKeyDown} onFocus={onFocus}>
      {/* The rows out of view are margins: the table holds only those in view, at their place. */}
      <table
        className="service-table"
        aria-label="Services"
        aria-rowcount={rows.length + 1}
        style={{ marginTop: above, marginBottom: below }}
      >
        <thead>
          <tr aria-rowindex={1}>
            <th scope="col" className="service-check">
              <input
                type="checkbox"
                aria-label={`Select all ${rows.length} shown`}
                checked={all === 'all'}
                ref={(box) => {
                  if (box) box.indeterminate = all === 'some';
                }}
                onChange={() => onSelect(withShown(selected, rows, all !== 'all'))}
              />
            </th>
            <th scope="col" className="service-state">
              State
            </th>
            <th scope="col">Project</th>
            <th scope="col">Service</th>
            <th scope="col" className="service-type">
              Type
            </th>
            <th scope="col" className="service-replicas">
              Replicas
            </th>
            <th scope="col" className="service-phase">
              Last action
            </th>
            <th scope="col" className="service-menu">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {shown.map((virtual) => {
            const service = rows[virtual.index]!;
            return (
              <ServiceRow
                key={virtual.key}
                service={service}
                index={virtual.index}
                selected={selected.has(virtual.key as string)}
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
