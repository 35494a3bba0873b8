import type { PanelHealth } from '../../shared/fleet-state.ts';
import type { Panel } from '../../shared/types.ts';
import { panelAttention, type PanelAttention } from './panel-attention.ts';
import { PANEL_STATES, type PanelState } from '../ui/panel-state.ts';

/**
 * One panel as the panel list shows it, in the list and in the table alike: its state, and whether and
 * why it needs attention (panel-attention.ts, the one definition both views count). Built once per
 * panel and state read (both immutable, so identity says when either changed), never per render
 * or keystroke: over ten thousand panels a keystroke only reads these back.
 */
export interface PanelRow {
  readonly panel: Panel;
  /** What the last check read of the panel's state, if anything. */
  readonly health: PanelHealth | undefined;
  /** The list's dot and label: the panel's state (ui/panel-state.ts), the same as the table's and the header's. */
  readonly kind: PanelState;
  readonly label: string;
  readonly attention: PanelAttention;
}

/** The rows built so far, by panel: one panel's row is built again only when it or its state changes. */
export type PanelRowCache = WeakMap<Panel, PanelRow>;

/** `panel`'s row with `health`, from `cache` when neither changed since. */
export function panelRow(cache: PanelRowCache, panel: Panel, health: PanelHealth | undefined): PanelRow {
  const known = cache.get(panel);
  if (known !== undefined && known.health === health) return known;
  const attention = panelAttention(panel, health);
  const row: PanelRow = { panel, health, kind: attention.state, label: attention.word, attention };
  cache.set(panel, row);
  return row;
}

/** Every panel's row, in the order given. */
export function panelRows(panels: readonly Panel[], health: ReadonlyMap<string, PanelHealth>, cache: PanelRowCache): PanelRow[] {
  return panels.map((panel) => panelRow(cache, panel, health.get(panel.id)));
}

/**
 * Whether a row is in "Needs attention": a fact (unreachable, expired, a failed log in, services
 * down, a full disk, a failed check) on a panel not muted. The list and the table both ask this,
 * for their counts, their filter and their headings, so the same panels need attention in both.
 */
export function needsAttention(row: Pick<PanelRow, 'attention'>): boolean {
  return row.attention.attention;
}

/** Panels per state, and how many need attention: over the whole fleet, whatever the search shows. */
export interface FleetCounts {
  counts: Record<PanelState, number>;
  attention: number;
}

export function fleetCounts<R extends PanelRow>(rows: readonly R[], attends: (row: R) => boolean = needsAttention): FleetCounts {
  const counts = Object.fromEntries(Object.keys(PANEL_STATES).map((state) => [state, 0])) as Record<PanelState, number>;
  let attention = 0;
  for (const row of rows) {
    counts[row.kind]++;
    if (attends(row)) attention++;
  }
  return { counts, attention };
}
