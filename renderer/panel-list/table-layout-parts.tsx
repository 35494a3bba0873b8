import { useEffect, useMemo, useRef, type KeyboardEvent, type PointerEvent as ReactPointerEvent } from 'react';
import { PANE_WIDTH } from '../../shared/table-limits.ts';
import type { PanelHealth } from '../../shared/fleet-state.ts';
import type { TableSettings, Panel } from '../../shared/types.ts';
import type { PanelRow } from './panel-rows.ts';
import { buildSearchTexts, type RowMatcher, type SearchCache } from './panel-list-rows.ts';
import { DISK_FULL_PERCENT, diskPercent } from './panel-attention.ts';
import { NO_MATCH } from './panel-search.ts';
import { DEFAULT_TABLE, groupTableRows, sortTableRows, type TableItem } from './table-columns.ts';

/**
 * The parts of the panel list the table layout adds: its rows in its order, the counts of services down and
 * full disks, and the drag handle of the list pane.
 */

/**
 * The table's items: the rows sorted once per order (and per change of the panels or their
 * state), then those `matcher` keeps (null: all) in that order, grouped when asked. A keystroke
 * filters the sorted rows; it never sorts ten thousand again.
 */
export function useTableItems(
  rows: readonly PanelRow[],
  table: TableSettings,
  matcher: RowMatcher<PanelRow> | null,
): { items: readonly TableItem[]; shown: number } {
  const { sortBy, descending, grouped, groupBy } = table;
  const sorted = useMemo(() => sortTableRows(rows, { sortBy, descending }), [rows, sortBy, descending]);
  const shown = useMemo(() => (matcher === null ? sorted : sorted.filter((row) => matcher(row) !== NO_MATCH)), [sorted, matcher]);
  const items = useMemo(() => groupTableRows(shown, grouped, groupBy), [shown, grouped, groupBy]);
  return { items, shown: shown.length };
}

/**
 * Builds every row's search text while the window is idle (a few milliseconds at a time), once per
 * change of the rows: the first keystroke then finds them built instead of building ten thousand.
 */
export function useSearchTextsWhenIdle(rows: readonly PanelRow[], cache: SearchCache): void {
  useEffect(() => {
    let next = 0;
    let handle = 0;
    const step = (deadline: IdleDeadline) => {
      next = buildSearchTexts(rows, cache, next, () => deadline.timeRemaining() < 2);
      if (next < rows.length) handle = requestIdleCallback(step);
    };
    handle = requestIdleCallback(step);
    return () => cancelIdleCallback(handle);
  }, [rows, cache]);
}

/** The table's view: the operator's, else the default. */
export function tableOf(table: TableSettings | undefined): TableSettings {
  return table ?? DEFAULT_TABLE;
}

/** Services down, disks nearly full (signed-in panels) and updates available over the whole fleet. */
export function healthCounts(
  panels: readonly Panel[],
  health: ReadonlyMap<string, PanelHealth>,
): { down: number; downPanels: number; fullDisks: number; updates: number } {
  let down = 0;
  let downPanels = 0;
  let fullDisks = 0;
  let updates = 0;
  for (const panel of panels) {
    if (panel.updateAvailable === true) updates++;
    const state = panel.signedIn ? health.get(panel.id) : undefined;
    if (!state) continue;
    if ((state.servicesDown ?? 0) > 0) {
      down += state.servicesDown!;
      downPanels++;
    }
    if ((diskPercent(state) ?? 0) > DISK_FULL_PERCENT) fullDisks++;
  }
  return { down, downPanels, fullDisks, updates };
}

/** The counts as buttons that search for them (`down`, `disk>90`); nothing when all is well. */
export function HealthCounts({ counts, onSearch }: { counts: ReturnType<typeof healthCounts>; onSearch(query: string): void }) {
  if (counts.down === 0 && counts.fullDisks === 0 && counts.updates === 0) return null;
  return (
    <fieldset className="health-counts" aria-label="Fleet health">
      {counts.down > 0 && (
        <button
          type="button"
          className="button-small health-down"
          title={`On ${counts.downPanels} ${counts.downPanels === 1 ? 'panel' : 'panels'}: shows them`}
          onClick={() => onSearch('down')}
        >
          {counts.down} {counts.down === 1 ? 'service' : 'services'} down
        </button>
      )}
      {counts.fullDisks > 0 && (
        <button type="button" className="button-small health-disk" onClick={() => onSearch(`disk>${DISK_FULL_PERCENT}`)}>
          {counts.fullDisks} {counts.fullDisks === 1 ? 'disk' : 'disks'} over {DISK_FULL_PERCENT}%
        </button>
      )}
      {counts.updates > 0 && (
        <button type="button" className="button-small health-update" onClick={() => onSearch('update:available')}>
          {counts.updates} {counts.updates === 1 ? 'update' : 'updates'} available
        </button>
      )}
    </fieldset>
  );
}

/** A pane width within the limits and the window (the panel view keeps at least 240 px). */
export function clampPaneWidth(width: number, windowWidth: number): number {
  return Math.round(Math.max(PANE_WIDTH.min, Math.min(PANE_WIDTH.max, windowWidth - 240, width)));
}

/**
 * The handle between the list pane and the panel view: dragged, or arrows step it. `width()` is
 * the pane's width on screen now (its default until the operator first drags it).
 */
export function PaneHandle({ width: widthNow, onWidth }: { width(): number; onWidth(width: number): void }) {
  const start = useRef<{ x: number; width: number } | null>(null);
  const width = widthNow();
  const onPointerDown = (event: ReactPointerEvent<HTMLDivElement>) => {
    event.preventDefault();
    event.currentTarget.setPointerCapture(event.pointerId);
    start.current = { x: event.clientX, width: widthNow() };
  };
  const widthAt = (x: number) => clampPaneWidth(start.current!.width + x - start.current!.x, window.innerWidth);
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const step = event.key === 'ArrowLeft' ? -24 : event.key === 'ArrowRight' ? 24 : 0;
    if (step === 0) return;
    event.preventDefault();
    onWidth(clampPaneWidth(width + step, window.innerWidth));
  };
  return (
    // biome-ignore lint/a11y/useSemanticElements: a focusable separator that moves is a splitter, which <hr> cannot be.
    <div
      className="pane-handle"
      role="separator"
      aria-orientation="vertical"
      aria-label="Width of the panel list"
      aria-valuenow={width}
      aria-valuemin={PANE_WIDTH.min}
      aria-valuemax={PANE_WIDTH.max}
      tabIndex={0}
      onPointerDown={onPointerDown}
      onPointerMove={(event) => start.current && onWidth(widthAt(event.clientX))}
      onPointerUp={() => {
        start.current = null;
      }}
      onKeyDown={onKeyDown}
    />
  );
}
