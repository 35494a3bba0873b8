import { type ReactNode, useEffect, useState } from 'react';
import type { AlertTab, StartSummary } from '../../shared/alerts.ts';
import { whenText } from '../activity/index.ts';
import { useNow, usePanels, useRevisions, useWindowContext } from '../window/app-context.tsx';
import { ALERT_TAB_NAMES, startSummaryLines, versionChangeLine } from './alert-rows.ts';

/** Panels a line names as buttons at most; past it, the Alerts view lists them all. */
const PANELS_NAMED = 3;

/**
 * "Since you last looked": what the first checks after this start found changed since the last run
 * saw the panels (a service gone down overnight, a panel that stopped answering), in one place at
 * the top of the window until dismissed. Read again at each alert event, since the first checks
 * finish a few seconds after the window opens; silent when they raised nothing.
 */
export function StartSummaryNotice() {
  const { api, locationStore } = useWindowContext();
  const { alerts: alertsRevision } = useRevisions();
  // A version change raises no alert: the summary is read again when a check pass ends, too.
  const passOver = usePanels().progress === null;
  const now = useNow();
  const [summary, setSummary] = useState<StartSummary | null>(null);
  const [dismissed, setDismissed] = useState(false);

  // biome-ignore lint/correctness/useExhaustiveDependencies: read again at each alert raised or changed, until dismissed
  useEffect(() => {
    if (dismissed) return;
    const reading = { stale: false };
    // A summary that cannot be read is only a summary: the Alerts view has every alert and says why it failed.
    void api
      .getStartSummary()
      .then((next) => reading.stale || setSummary(next))
      .catch(() => undefined);
    return () => {
      reading.stale = true;
    };
  }, [api, alertsRevision, passOver, dismissed]);

  if (dismissed || !summary || (summary.alerts.length === 0 && summary.versionChanges.length === 0)) return null;
  const lines = startSummaryLines(summary);
  const versions = versionChangeLine(summary);
  const since = summary.since ? ` (${whenText(new Date(Date.parse(summary.since)), new Date(now))})` : '';
  const resolved = summary.alerts.filter((alert) => alert.resolvedAt !== null).length;
  return (
    <section className="notice notice-warning start-summary" aria-labelledby="start-summary-title">
      <h2 id="start-summary-title" className="notice-title">
        Since you last looked{since}
      </h2>
      <ul className="start-summary-lines">
        {lines.map((line) => (
          <li key={line.kind}>
            <span>{line.text}</span>
            {line.panels.slice(0, PANELS_NAMED).map((panel) => (
              <PanelLink key={panel.panelId} panelId={panel.panelId} panelName={panel.panelName} tab={panel.tab}>
                {panel.panelName}
              </PanelLink>
            ))}
            {line.panels.length > PANELS_NAMED && (
              <button type="button" className="button-link" onClick={() => locationStore.show('alerts')}>
                {line.panels.length - PANELS_NAMED} more in Alerts
              </button>
            )}
          </li>
        ))}
        {versions && (
          <li>
            <span>{versions.text}</span>
            {versions.panels.slice(0, PANELS_NAMED).map((change) => (
              <PanelLink key={change.panelId} panelId={change.panelId} panelName={change.panelName} tab="overview">
                {change.panelName} ({change.from} → {change.to})
              </PanelLink>
            ))}
            {versions.panels.length > PANELS_NAMED && <span className="muted">and {versions.panels.length - PANELS_NAMED} more</span>}
          </li>
        )}
      </ul>
      {resolved > 0 && <p className="muted">{resolved === summary.alerts.length ? 'All' : resolved} resolved since.</p>}
      <div className="start-summary-actions">
        <button type="button" onClick={() => locationStore.show('alerts')}>
          Open Alerts
        </button>
        <button type="button" onClick={() => setDismissed(true)}>
          Dismiss
        </button>
      </div>
    </section>
  );
}

/** A panel named in the summary: opens it at the tab that shows the cause. */
function PanelLink({ panelId, panelName, tab, children }: { panelId: string; panelName: string; tab: AlertTab; children: ReactNode }) {
  const { locationStore } = useWindowContext();
  return (
    <button
      type="button"
      className="button-link"
      aria-label={`Open ${panelName} at ${ALERT_TAB_NAMES[tab]}`}
      onClick={() => locationStore.showPanelAt(panelId, tab)}
    >
      {children}
    </button>
  );
}
