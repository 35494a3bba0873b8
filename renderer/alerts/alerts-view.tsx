import { useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { type Alert, ALERTS_KEPT, alertStanding } from '../../shared/alerts.ts';
import type { ErrorInfo } from '../../shared/contract/errors.ts';
import { ALERT_KIND_NAMES, ALERT_TAB_NAMES, type AlertListItem, filterAlerts, groupAlerts, STANDING_NAMES } from './alert-rows.ts';
import { useNow, useRevisions, useWindowContext } from '../window/app-context.tsx';
import { failureInfo } from '../window/failure-info.ts';
import { useBusyAction } from '../window/busy-action.ts';
import { whenText } from '../activity/index.ts';
import { ReadStates } from '../ui/read-states.tsx';
import { SearchField } from '../ui/search-field.tsx';
import { type RowPlacement, VirtualRows } from '../ui/virtual-rows.tsx';

/** Two lines a row, as the activity log's: the list draws only the rows in view. */
const ROW_HEIGHT = 58;

type Loaded = { alerts: Alert[]; error: null } | { alerts: null; error: ErrorInfo | null };

/**
 * The alerts main raised (a service down, a disk past the threshold, a panel not answering or not
 * answering as itself, a session ending): open ones first, then acknowledged, then resolved, each
 * group newest first under its heading; read when shown and again at each `alertRaised` and
 * `alertChanged`. Each row opens its panel at the tab that shows the cause; an open one can be acknowledged.
 */
export function AlertsView() {
  const { api, locationStore } = useWindowContext();
  const { alerts: alertsRevision } = useRevisions();
  const [loaded, setLoaded] = useState<Loaded>({ alerts: null, error: null });
  const [retries, setRetries] = useState(0);
  const [query, setQuery] = useState('');
  const search = useRef<HTMLInputElement>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: read again at each alert main raises and at each Try again
  useEffect(() => {
    const reading = { stale: false };
    void api
      .listAlerts()
      .then((alerts): Loaded => ({ alerts, error: null }))
      .catch((caught: unknown): Loaded => ({ alerts: null, error: failureInfo(caught) }))
      // Only the newest answer is shown.
      .then((next) => reading.stale || setLoaded(next));
    return () => {
      reading.stale = true;
    };
  }, [api, alertsRevision, retries]);
  useEffect(() => search.current?.focus(), []);

  const shownQuery = useDeferredValue(query);
  const all = loaded.alerts;
  const shown = useMemo(() => (all ? filterAlerts(all, shownQuery) : []), [all, shownQuery]);
  const items = useMemo(() => groupAlerts(shown), [shown]);

  return (
    <section className="activity-view alerts-view" aria-labelledby="alerts-title">
      <header className="activity-header">
        <h1 id="alerts-title">Alerts</h1>
        <button type="button" onClick={() => locationStore.show('panels')}>
          Back to the panel
        </button>
      </header>
      <p className="muted">
        What changed for the worse at a panel, once per change: a service down, a disk past the threshold, a panel not answering or
        answering with something other than its API, a changed certificate, a session ending. Open ones first; an alert is resolved when a
        check finds it cleared. The newest {ALERTS_KEPT} are kept. Preferences say which ones are also system notifications.
      </p>
      <div className="activity-filters">
        <SearchField ref={search} label="Search the alerts" placeholder="Search panel, service, kind" value={query} onSearch={setQuery} />
        {all && (
          <span className="muted" role="status">
            {shown.length === all.length ? `${all.length} alerts` : `${shown.length} of ${all.length} alerts`}
          </span>
        )}
      </div>
      <ReadStates
        error={loaded.error}
        onRetry={() => setRetries((count) => count + 1)}
        reading={all === null && !loaded.error ? 'Reading the alerts…' : null}
        empty={
          all === null || shown.length > 0
            ? null
            : all.length === 0
              ? 'No alert yet. The background checks raise one when a service goes down, a disk fills up, a panel stops answering or a session is about to end.'
              : 'No alert matches. Esc in the search box clears it.'
        }
      >
        <AlertRows items={items} />
      </ReadStates>
    </section>
  );
}

function AlertRows({ items }: { items: readonly AlertListItem[] }) {
  const now = useNow();
  return (
    <VirtualRows
      items={items}
      rowHeight={ROW_HEIGHT}
      label="Alerts: open, acknowledged, resolved, each newest first"
      keyOf={(item) => (item.type === 'heading' ? `heading-${item.standing}` : item.alert.id)}
      row={(item, placement) =>
        item.type === 'heading' ? (
          // A row of its own, placed like the alerts' but not counted among them (no set size or position).
          <li className={`alert-group-heading alert-group-${item.standing}`} style={placement.style}>
            <h2>
              {STANDING_NAMES[item.standing]} <span className="muted">({item.count})</span>
            </h2>
          </li>
        ) : (
          <AlertRow alert={item.alert} now={now} placement={placement} />
        )
      }
    />
  );
}

function AlertRow({ alert, now, placement }: { alert: Alert; now: number; placement: RowPlacement }) {
  const { api, panelStore, locationStore } = useWindowContext();
  const acknowledging = useBusyAction();
  const at = new Date(Date.parse(alert.at));
  const present = panelStore.has(alert.panelId);
  const standing = alertStanding(alert);
  const settled = alert.resolvedAt ?? alert.acknowledgedAt;
  return (
    <li className={`activity-row alert-row alert-${alert.kind} alert-${standing}`} {...placement}>
      <span className="activity-outcome">
        <span className="outcome-mark" aria-hidden="true" />
        {ALERT_KIND_NAMES[alert.kind]}
      </span>
      <span className="activity-what" title={alert.message}>
        {alert.message}
      </span>
      <time className="activity-when muted" dateTime={alert.at} title={at.toString()}>
        {whenText(at, new Date(now))}
      </time>
      <span className="alert-panel">
        {standing === 'open' && (
          <button
            type="button"
            disabled={acknowledging.busy}
            // The list is read again at the alertChanged that follows: nothing to change here.
            onClick={() => void acknowledging.run(async () => void (await api.acknowledgeAlert(alert.id)))}
          >
            Acknowledge
          </button>
        )}
        {/* The button names the panel; a panel removed since has nothing to open, only its name. */}
        {present ? (
          <button type="button" onClick={() => locationStore.showPanelAt(alert.panelId, alert.tab)}>
            Open {alert.panelName} at {ALERT_TAB_NAMES[alert.tab]}
          </button>
        ) : (
          alert.panelName
        )}
        {settled && (
          <time className="muted" dateTime={settled} title={new Date(Date.parse(settled)).toString()}>
            {standing === 'resolved' ? 'resolved' : 'acknowledged'} {whenText(new Date(Date.parse(settled)), new Date(now))}
          </time>
        )}
        {acknowledging.error && (
          <span className="alert-error" role="alert">
            {acknowledging.error.message}
          </span>
        )}
      </span>
    </li>
  );
}
