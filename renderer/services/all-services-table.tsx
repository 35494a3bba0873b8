import { type RefObject, useCallback, useLayoutEffect, useState } from 'react';
import { agoText } from '../../shared/durations.ts';
import type { ServicesGrouping } from '../../shared/types.ts';
import type { FleetServiceItem, FleetServiceRow } from './all-services-rows.ts';
import { stateCounts as countsText } from './service-rows.ts';
import { shownSelection, withShown } from './service-selection.ts';
import { useSelectableRows } from './use-selectable-rows.ts';
import { ServiceRow } from './service-row.tsx';
import { ServiceTableHead } from './service-table.tsx';
import type { ServiceActionState } from '../window/service-action-store.ts';

/** Every row's height in pixels: fixed, so ten thousand rows cost no measuring and only those in view are drawn. */
export const FLEET_SERVICE_ROW_HEIGHT = 28;

interface FleetServicesTableProps {
  items: readonly FleetServiceItem[];
  /** How many services are shown (the headings aside). */
  count: number;
  selected: ReadonlySet<string>;
  /** Each service's last action in this window, by `serviceActionKey` (a row's key). */
  actions: ReadonlyMap<string, ServiceActionState>;
  onSelect(next: ReadonlySet<string>): void;
  onOpenMenu(row: FleetServiceRow, at: { x: number; y: number }): void;
  now: number;
  /** The view's grouping: a narrow table leaves out the column its headings already say. */
  grouping: ServicesGrouping;
}

/**
 * A table narrower than this (its own width, not the window's: the table layout can leave the view
 * little room on a wide screen) leaves out type, replicas, CPU, memory and read (all-services.css,
 * `.is-narrow`), so the names stay readable; the grouping's own column is left out at every width.
 */
// The fixed columns (check, state, panel, type, replicas, CPU, memory, read, phase, menu) take about 940 px:
// under this the names had no width left at all (measured 0 px at 1280x800 in the list layout).
const NARROW_BELOW_PX = 1140;
/** Columns a narrow table leaves out: type, replicas, CPU, memory, read. */
const NARROW_HIDDEN = 5;
/** The grouping's own column (its headings say it), left out at every width; a group has no column of its own. */
const groupingHidden = (grouping: ServicesGrouping) => (grouping === 'group' ? 0 : 1);
const COLUMNS_AFTER_CHECK = 11;

/** Whether the element is narrower than NARROW_BELOW_PX, kept up to date as it is resized. */
function useNarrow(element: RefObject<HTMLElement | null>): boolean {
  const [narrow, setNarrow] = useState(false);
  useLayoutEffect(() => {
    const current = element.current;
    if (!current) return;
    const measure = () => setNarrow(current.clientWidth < NARROW_BELOW_PX);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(current);
    return () => observer.disconnect();
  }, [element]);
  return narrow;
}

const selectionKey = (item: FleetServiceItem) => (item.kind === 'row' ? item.key : null);

/**
 * Every service of every signed-in panel, under a heading per group, in one table of which only the
 * rows in view are in the page. The selection works as in a panel's Services tab (use-selectable-rows.ts);
 * a heading's checkbox selects its group's rows shown.
 */
export function FleetServicesTable({ items, count, selected, actions, onSelect, onOpenMenu, now, grouping }: FleetServicesTableProps) {
  const openMenu = useCallback(
    (item: FleetServiceItem, at: { x: number; y: number }) => item.kind === 'row' && onOpenMenu(item.row, at),
    [onOpenMenu],
  );
  const { scroller, handlers, onKeyDown, onFocus, shown, activeIndex, margins, all, toggleAll } = useSelectableRows({
    rows: items,
    keyOf: selectionKey,
    rowHeight: FLEET_SERVICE_ROW_HEIGHT,
    selected,
    onSelect,
    onOpenMenu: openMenu,
  });
  const rowKey = (row: FleetServiceRow) => row.key;
  // A heading spans the columns shown, no more: a span past them would widen the table beyond its edge.
  const narrow = useNarrow(scroller);
  // Narrow, the last action's column is there only once a row has one: beside the panel table the
  // view is about 380 px wide, and an empty column of 96 px left the names 50 px.
  const phaseHidden = narrow && actions.size === 0;
  const headingSpan = COLUMNS_AFTER_CHECK - groupingHidden(grouping) - (narrow ? NARROW_HIDDEN : 0) - (phaseHidden ? 1 : 0);
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex lint/a11y/noStaticElementInteractions: a scrolling region must take the keyboard to be scrolled (axe: scrollable-region-focusable); the rows' keys bubble to it
    <div ref={scroller} className="service-scroller fleet-services-scroller" tabIndex={0} onKeyDown={onKeyDown} onFocus={onFocus}>
      <table
        className={`service-table fleet-services-table grouped-${grouping}${narrow ? ' is-narrow' : ''}${phaseHidden ? ' no-actions' : ''}`}
        aria-label="Services of every panel"
        aria-rowcount={items.length + 1}
        style={margins}
      >
        <ServiceTableHead count={count} all={all} onToggleAll={toggleAll} fleet={true} />
        <tbody>
          {shown.map((virtual) => {
            const item = items[virtual.index]!;
            if (item.kind === 'group') {
              const state = item.rows.length === 0 ? 'none' : shownSelection(selected, item.rows, rowKey);
              return (
                <tr
                  key={item.key}
                  className={`fleet-group-row${item.problem ? ' has-problem' : ''}`}
                  aria-rowindex={virtual.index + 2}
                  data-index={virtual.index}
                >
                  <td className="service-check">
                    {item.rows.length > 0 && (
                      <input
                        type="checkbox"
                        aria-label={`Select the ${item.rows.length} of ${item.name}`}
                        tabIndex={virtual.index === activeIndex ? 0 : -1}
                        checked={state === 'all'}
                        ref={(box) => {
                          if (box) box.indeterminate = state === 'some';
                        }}
                        onChange={() => onSelect(withShown(selected, item.rows, state !== 'all', rowKey))}
                      />
                    )}
                  </td>
                  <td colSpan={headingSpan} title={item.problem ?? undefined}>
                    <strong>{item.name}</strong>
                    <span className="muted"> · {countsText(item.rows) || 'no service shown'}</span>
                    {item.problem && <span className="fleet-group-problem"> · State unknown: {item.problem}</span>}
                  </td>
                </tr>
              );
            }
            return (
              <ServiceRow
                key={item.key}
                service={item.row}
                index={virtual.index}
                selected={selected.has(item.key)}
                tabbable={virtual.index === activeIndex}
                action={actions.get(item.key)}
                handlers={handlers}
                readText={agoText(Date.parse(item.row.readAt), now)}
              />
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
