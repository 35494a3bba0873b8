import type { ErrorCode } from './contract/errors.ts';
import type { ServiceState } from './services.ts';

/**
 * What the last check read of a panel's state, beside its session: how its services run and the
 * server's load (`getFleetState`, the `fleetStateChanged` event). Kept between runs, so the panel list
 * is full at start; each row says when it was read. Compact on purpose: a fleet of 10,000 panels
 * crosses to the window in one answer.
 */

/** How many services are in each state; a state with none is left out. */
export type ServiceCounts = Partial<Record<ServiceState, number>>;

export interface PanelHealth {
  panelId: string;
  /** When the figures below were read (ISO 8601). A read that failed whole keeps the older figures, and says why in `problem`. */
  readAt: string;
  /** Services that should run and do not (`down`); null when the task stats could not be read. */
  servicesDown: number | null;
  /** Null when the task stats could not be read. */
  services: ServiceCounts | null;
  /** Each figure null when the panel did not say it, or the load could not be read. */
  cpuPercent: number | null;
  memory: { usedMb: number | null; totalMb: number | null };
  disk: { usedGb: number | null; totalGb: number | null };
  /** The Easypanel version the panel last named (the check history's), else null. */
  version: string | null;
  /** Why the last state read (at `at`) failed, in whole or in part, shortened; null when it worked. */
  problem: { at: string; code: ErrorCode; message: string } | null;
}

/** Longest problem message kept: the panel's words are shown in a table cell, not a page. */
export const HEALTH_PROBLEM_MAX = 300;
