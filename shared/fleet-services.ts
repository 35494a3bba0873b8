import type { ErrorCode } from './contract/errors.ts';
import type { ServiceAction } from './service-actions.ts';
import type { ServiceSummary } from './services.ts';

/**
 * Every service of every signed-in panel, as main last read them (`getFleetServices`, the
 * `fleetServicesChanged` event), and actions across panels (`runServiceActions`). Compact on
 * purpose: 10,000 services cross to the window in one answer.
 */

/** A service as the fleet Services view shows it: the panel's summary, and its load when the panel says it. */
export interface FleetServiceSummary extends ServiceSummary {
  /** Null when the panel did not say it (the task/container stats of that generation lack it). */
  cpuPercent: number | null;
  memoryMb: number | null;
}

/** One signed-in panel's services as main last read them (a check's state read, or listServices). */
export interface PanelServices {
  panelId: string;
  /** When the states were read, ISO 8601. */
  readAt: string;
  services: FleetServiceSummary[];
  /** The panel listed more than MAX_LISTED_SERVICES. */
  truncated: boolean;
  /** Why the last read of them failed (they are then the older ones, or none); null when it worked. */
  problem: { at: string; code: ErrorCode; message: string } | null;
}

/** One service an action across panels is asked for. */
export interface ServiceActionItem {
  panelId: string;
  projectName: string;
  serviceName: string;
}

/** What one item of `runServiceActions` came to; `cancelled`: never sent (Cancel came first). */
export interface ServiceActionItemResult extends ServiceActionItem {
  action: ServiceAction;
  outcome: 'done' | 'failed' | 'unknown' | 'cancelled';
  /** The panel's words for a failure, why the outcome is unknown, or null. Never a secret. */
  message: string | null;
}

/** Most items one `runServiceActions` takes. */
export const MAX_SERVICE_ACTION_ITEMS = 10_000;
