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

/**
 * Most service actions in flight over a run, and on one panel. A deploy can hold its request for
 * minutes and an Easypanel server is often small: 8 keeps a run's load on the fleet and on main's
 * sockets modest while a restart of hundreds still takes a few rounds of the panels' answers; 2
 * per panel never makes one panel do more than two of its services' rollouts at once. Main keeps
 * them; the window says them in its confirmations.
 */
export const SERVICE_ACTIONS_AT_ONCE = 8;
export const SERVICE_ACTIONS_PER_PANEL = 2;

/** An item of the run under way, as main holds it: how far it went. */
export interface ServiceActionRunItem extends ServiceActionItem {
  /** `queued`: not started yet; `sent`: recorded and on its way; then its outcome (`cancelled`: never sent). */
  phase: 'queued' | 'sent' | ServiceActionItemResult['outcome'];
  /** As in the item's result; null while it is queued or on its way. */
  message: string | null;
}

/** The run of `runServiceActions` under way (`getServiceActionRun`): what a window loaded meanwhile takes up. */
export interface ServiceActionRun {
  action: ServiceAction;
  /** Every item, in the order asked. */
  items: ServiceActionRunItem[];
  /** Cancel was asked: nothing more starts, and what is left answers `cancelled`. */
  cancelling: boolean;
}
