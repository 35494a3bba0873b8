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
  /**
   * Services that should run and do not (`down`); null when the last state read could not read or
   * understand the task stats (garbage, an HTML page, the wrong shape, a timeout): never 0 then.
   */
  servicesDown: number | null;
  /** The services down as "project/service", at most `DOWN_NAMES_MAX`; null when they cannot be named (no list read yet, or none down is known). */
  downServices: string[] | null;
  /** Null when the task stats could not be read. */
  services: ServiceCounts | null;
  /** Each figure null when the panel did not say it, or the load could not be read. */
  cpuPercent: number | null;
  memory: { usedMb: number | null; totalMb: number | null };
  disk: { usedGb: number | null; totalGb: number | null };
  /** The Easypanel version the panel last named (the check history's), else null. */
  version: string | null;
  /** Why the last state read (at `at`) failed, in whole or in part, shortened; null when it worked. */
  problem: HealthProblem | null;
}

export interface HealthProblem {
  at: string;
  code: ErrorCode;
  message: string;
  /**
   * The panel has neither state route (404/405: a proxy, or a panel that is no Easypanel): it offers
   * no state to read, which is no failure to attend to; its state is still not known. False in older files.
   */
  routesMissing: boolean;
}

/** Most services down named per panel: a panel list row says a few, its tooltip the rest. */
export const DOWN_NAMES_MAX = 50;

/** Longest problem message kept: the panel's words are shown in a table cell, not a page. */
export const HEALTH_PROBLEM_MAX = 300;
