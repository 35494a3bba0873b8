import type { Alert, AlertKind, AlertTab } from '../../shared/alerts.ts';

/** Each kind as the list names it. */
export const ALERT_KIND_NAMES: Readonly<Record<AlertKind, string>> = {
  serviceDown: 'Service down',
  diskFull: 'Disk nearly full',
  unreachable: 'Not answering',
  certificateChanged: 'Certificate changed',
  badAnswer: 'Not its API',
  sessionEnding: 'Session ending',
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
