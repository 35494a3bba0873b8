/**
 * Alerts: what changed for the worse on a panel, raised by main once per change (never per check),
 * listed newest first (`listAlerts`) and sent as `alertRaised` events. Each names the panel tab
 * where the operator sees the cause.
 */

export const ALERT_KINDS = ['serviceDown', 'diskFull', 'unreachable', 'sessionEnding'] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

/** The panel's tab an alert opens at: a subset of the window's tabs. */
export type AlertTab = 'overview' | 'services' | 'session';

export const ALERT_TABS: Readonly<Record<AlertKind, AlertTab>> = Object.freeze({
  serviceDown: 'services',
  diskFull: 'overview',
  unreachable: 'session',
  sessionEnding: 'session',
});

export interface Alert {
  /** Unique within a run (and across runs: it starts with the time it was raised). */
  id: string;
  /** When it was raised (ISO 8601). */
  at: string;
  panelId: string;
  /** The panel's name when it was raised. */
  panelName: string;
  kind: AlertKind;
  message: string;
  tab: AlertTab;
}

/** Alerts kept at most, the oldest dropped past it. */
export const ALERTS_KEPT = 500;

/** Longest message: a service's name and a panel's words, never a page. */
export const ALERT_MESSAGE_MAX = 500;

const TABS: ReadonlySet<unknown> = new Set(Object.values(ALERT_TABS));

export function isAlertTab(value: unknown): value is AlertTab {
  return TABS.has(value);
}

export function isAlertKind(value: unknown): value is AlertKind {
  return typeof value === 'string' && (ALERT_KINDS as readonly string[]).includes(value);
}
