/**
 * Alerts: what changed for the worse on a panel, raised by main once per change (never per check),
 * listed newest first (`listAlerts`) and sent as `alertRaised` events. Each names the panel tab
 * where the operator sees the cause. An alert is open until the operator acknowledges it or a
 * check finds its condition cleared (resolved); a change of either comes as `alertChanged`.
 */

export const ALERT_KINDS = [
  'serviceDown',
  'diskFull',
  'unreachable',
  'certificateChanged',
  'badAnswer',
  'sessionEnding',
  'upgradeNotBack',
  'backupFailed',
  'noBackup',
  'certificateExpiring',
  'certificateFailed',
] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

/** The panel's tab an alert opens at: a subset of the window's tabs. */
export type AlertTab = 'overview' | 'services' | 'session';

export const ALERT_TABS: Readonly<Record<AlertKind, AlertTab>> = Object.freeze({
  serviceDown: 'services',
  diskFull: 'overview',
  unreachable: 'session',
  certificateChanged: 'session',
  badAnswer: 'session',
  sessionEnding: 'session',
  upgradeNotBack: 'overview',
  // Raised from the backups read (the Backups view): the service's tab names it.
  backupFailed: 'services',
  noBackup: 'services',
  // Raised from the certificates read (the Certificates view): the domain is the service's.
  certificateExpiring: 'services',
  certificateFailed: 'services',
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
  /**
   * The service ("project/service") of a `serviceDown`, `backupFailed`, `noBackup`, `certificateExpiring` or
   * `certificateFailed` alert; null for the other kinds (and for alerts kept before it was recorded).
   */
  service: string | null;
  /** The domain of a `certificateExpiring` or `certificateFailed` alert (one alert per domain); null for the other kinds. */
  host: string | null;
  /** When a check first found the condition cleared (ISO 8601); null while it holds or was never read again. */
  resolvedAt: string | null;
  /** When the operator acknowledged it (ISO 8601); null until then. */
  acknowledgedAt: string | null;
}

/** Where an alert stands: open until acknowledged; resolved once its condition cleared, whether acknowledged or not. */
export type AlertStanding = 'open' | 'acknowledged' | 'resolved';

export function alertStanding(alert: Pick<Alert, 'resolvedAt' | 'acknowledgedAt'>): AlertStanding {
  if (alert.resolvedAt !== null) return 'resolved';
  return alert.acknowledgedAt !== null ? 'acknowledged' : 'open';
}

/**
 * What the first check of each panel after this start raised, compared with the observation saved
 * by the last run (`getStartSummary`): the faults that happened while Paneldeck was closed.
 */
export interface StartSummary {
  /** When the newest of the saved observations compared with was made (ISO 8601); null when no panel had one. */
  since: string | null;
  /** Panels whose first check this run compared with a saved observation. */
  comparedPanels: number;
  /** The alerts those first checks raised, as they stand now, newest first. */
  alerts: Alert[];
  /** Panels whose first check this run found another Easypanel version than the last run saw. */
  versionChanges: { panelId: string; panelName: string; from: string; to: string }[];
}

/** Alerts kept at most, the oldest dropped past it. */
export const ALERTS_KEPT = 500;

/** Longest message: a service's name and a panel's words, never a page. */
export const ALERT_MESSAGE_MAX = 500;
/** Longest domain an alert keeps: DNS allows 253. */
export const ALERT_HOST_MAX = 253;

const TABS: ReadonlySet<unknown> = new Set(Object.values(ALERT_TABS));

export function isAlertTab(value: unknown): value is AlertTab {
  return TABS.has(value);
}

export function isAlertKind(value: unknown): value is AlertKind {
  return typeof value === 'string' && (ALERT_KINDS as readonly string[]).includes(value);
}
