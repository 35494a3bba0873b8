import { PANEL_STATES } from '../ui/panel-state.ts';
import {
  ALERT_KINDS,
  type Alert,
  type AlertKind,
  type AlertStanding,
  type AlertTab,
  alertStanding,
  type StartSummary,
} from '../../shared/alerts.ts';

/** Each kind as the list names it. */
export const ALERT_KIND_NAMES: Readonly<Record<AlertKind, string>> = {
  serviceDown: 'Service down',
  diskFull: 'Disk nearly full',
  // The panel's state word, from the one table of them.
  unreachable: PANEL_STATES.unreachable.word,
  certificateChanged: 'Certificate changed',
  badAnswer: 'Not its API',
  sessionEnding: 'Session ending',
  upgradeNotBack: 'Not back after upgrade',
  backupFailed: 'Backup failed',
  noBackup: 'No backup',
  // A website's, not the panel's own (certificateChanged).
  certificateExpiring: 'Website certificate ending',
  certificateFailed: 'Website certificate fault',
};

/** The tab an alert opens, as its button says it. */
export const ALERT_TAB_NAMES: Readonly<Record<AlertTab, string>> = {
  services: 'Services',
  overview: 'Overview',
  session: 'Session',
};

/** The alerts every word of the query is found in (kind, message, panel), in their order. */
export function filterAlerts(alerts: readonly Alert[], query: string): Alert[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...alerts];
  return alerts.filter((alert) => {
    const text = `${ALERT_KIND_NAMES[alert.kind]} ${alert.message} ${alert.panelName}`.toLowerCase();
    return words.every((word) => text.includes(word));
  });
}

/** Each group of the list as its heading names it, in the order shown: what needs the operator first. */
export const STANDING_NAMES: Readonly<Record<AlertStanding, string>> = {
  open: 'Open',
  acknowledged: 'Acknowledged',
  resolved: 'Resolved',
};

const STANDINGS: readonly AlertStanding[] = ['open', 'acknowledged', 'resolved'];

/** One row of the Alerts list: a group's heading or an alert. */
export type AlertListItem = { type: 'heading'; standing: AlertStanding; count: number } | { type: 'alert'; alert: Alert };

/** The alerts by standing (open, then acknowledged, then resolved), each group newest first as given and headed; empty groups left out. */
export function groupAlerts(alerts: readonly Alert[]): AlertListItem[] {
  const groups = new Map<AlertStanding, Alert[]>(STANDINGS.map((standing) => [standing, []]));
  for (const alert of alerts) groups.get(alertStanding(alert))?.push(alert);
  return STANDINGS.flatMap((standing): AlertListItem[] => {
    const group = groups.get(standing) ?? [];
    if (group.length === 0) return [];
    return [{ type: 'heading', standing, count: group.length }, ...group.map((alert): AlertListItem => ({ type: 'alert', alert }))];
  });
}

/** One line of the start summary: what went wrong, how often, and the panels it happened on. */
export interface StartSummaryLine {
  kind: AlertKind;
  text: string;
  /** The panels, each once, in the order of their newest alert, with the tab the first one opens at. */
  panels: { panelId: string; panelName: string; tab: AlertTab }[];
}

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** How each kind reads in the summary, given how many alerts and on how many panels. */
const SUMMARY_TEXT: Readonly<Record<AlertKind, (alerts: number, panels: number) => string>> = {
  serviceDown: (alerts, panels) => `${plural(alerts, 'service', 'services')} went down on ${plural(panels, 'panel', 'panels')}`,
  diskFull: (_, panels) => `${plural(panels, 'disk', 'disks')} passed the alert threshold`,
  unreachable: (_, panels) => `${plural(panels, 'panel', 'panels')} stopped answering`,
  certificateChanged: (_, panels) => `${plural(panels, 'panel', 'panels')} presented a changed certificate`,
  badAnswer: (_, panels) => `${plural(panels, 'panel', 'panels')} answered with something other than its API`,
  sessionEnding: (_, panels) => `${plural(panels, 'session', 'sessions')} about to end`,
  upgradeNotBack: (_, panels) => `${plural(panels, 'panel', 'panels')} not back after an upgrade`,
  backupFailed: (alerts) => `${plural(alerts, 'backup', 'backups')} failed its last run`,
  noBackup: (alerts) => `${plural(alerts, 'database has', 'databases have')} no backup`,
  certificateExpiring: (alerts) => `${plural(alerts, 'website certificate ends', 'website certificates end')} soon`,
  certificateFailed: (alerts) => `${plural(alerts, 'website certificate has', 'website certificates have')} a fault`,
};

/** The start summary as lines, one per kind, in the order of ALERT_KINDS (services first). */
export function startSummaryLines(summary: Pick<StartSummary, 'alerts'>): StartSummaryLine[] {
  return ALERT_KINDS.flatMap((kind) => {
    const alerts = summary.alerts.filter((alert) => alert.kind === kind);
    if (alerts.length === 0) return [];
    const panels = new Map<string, StartSummaryLine['panels'][number]>();
    for (const { panelId, panelName, tab } of alerts) if (!panels.has(panelId)) panels.set(panelId, { panelId, panelName, tab });
    return [{ kind, text: SUMMARY_TEXT[kind](alerts.length, panels.size), panels: [...panels.values()] }];
  });
}

/** Whether `to` is a later version than `from`, compared number by number ("2.10.0" after "2.9.3"). */
function isLater(from: string, to: string): boolean {
  const parts = (version: string) => version.split('.').map((part) => Number.parseInt(part, 10) || 0);
  const [a, b] = [parts(from), parts(to)];
  for (let i = 0; i < Math.max(a.length, b.length); i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (b[i] ?? 0) > (a[i] ?? 0);
  return false;
}

/** The summary's line of panels found on another Easypanel version, or null when there is none. */
export function versionChangeLine(
  summary: Pick<StartSummary, 'versionChanges'>,
): { text: string; panels: StartSummary['versionChanges'] } | null {
  const changes = summary.versionChanges;
  if (changes.length === 0) return null;
  const upgraded = changes.every((change) => isLater(change.from, change.to));
  const text = `${plural(changes.length, 'panel', 'panels')} ${upgraded ? (changes.length === 1 ? 'was upgraded' : 'were upgraded') : 'changed Easypanel version'}`;
  return { text, panels: changes };
}
