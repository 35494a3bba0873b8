import { useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { agoText } from '../../shared/durations.ts';
import type { ErrorInfo } from '../../shared/contract/errors.ts';
import type { ActivityEntry, ActivityList } from '../../shared/types.ts';
import { filterActivity, OUTCOME_NAMES, whatText } from './activity-rows.ts';
import { useNow, useRevisions, useWindowContext } from '../window/app-context.tsx';
import { useSelection } from '../panel-list/views.tsx';
import { failureInfo } from '../window/failure-info.ts';
import { ReadStates } from '../ui/read-states.tsx';
import { SearchField } from '../ui/search-field.tsx';
import { type RowPlacement, VirtualRows } from '../ui/virtual-rows.tsx';

/** Each entry is one row this high (two lines): the list draws only the rows in view, so ten thousand cost what twenty do. */
const ROW_HEIGHT = 58;
/** Short enough that the row's first column holds it with its "ago" whole; the title gives the full time. */
const TIME_OF_DAY = new Intl.DateTimeFormat(undefined, { timeStyle: 'short' });
const DAY_AND_TIME = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });
const FULL_DATE = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/**
 * When, as short as it stays plain (the whole date is in the hover title): today's entries by their
 * time and how long ago, older ones by their day, this year's without the year.
 */
export function whenText(at: Date, now: Date): string {
  if (at.toDateString() === now.toDateString()) return `${TIME_OF_DAY.format(at)} · ${agoText(at.getTime(), now.getTime())}`;
  return at.getFullYear() === now.getFullYear() ? DAY_AND_TIME.format(at) : FULL_DATE.format(at);
}

/**
 * The activity log: every write Paneldeck made to a panel, newest first, with its outcome. Read
 * from main when shown and again at each `activityChanged`; filtered by the panel shown and a search.
 */
export function ActivityView() {
  const { api, locationStore } = useWindowContext();
  const { activity: activityRevision } = useRevisions();
  const { selected } = useSelection();
  const [log, setLog] = useState<ActivityList | null>(null);
  const [error, setError] = useState<ErrorInfo | null>(null);
  const [attempt, setAttempt] = useState(0);
  const [query, setQuery] = useState('');
  const [onlySelected, setOnlySelected] = useState(false);
  const search = useRef<HTMLInputElement>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: read again at each change main reports and at each Try again
  useEffect(() => {
    let current = true;
    // A reload while one is in flight: only the newest answer is shown.
    api.listActivity().then(
      (answer) => {
        if (!current) return;
        setLog(answer);
        setError(null);
      },
      (caught: unknown) => current && setError(failureInfo(caught)),
    );
    return () => {
      current = false;
    };
  }, [api, activityRevision, attempt]);

  useEffect(() => search.current?.focus(), []);

  const panelId = onlySelected && selected ? selected.id : null;
  const shownQuery = useDeferredValue(query);
  const entries = useMemo(() => (log ? filterActivity(log.entries, panelId, shownQuery) : []), [log, panelId, shownQuery]);

  return (
    <section className="activity-view" aria-labelledby="activity-title">
      <header className="activity-header">
        <h1 id="activity-title">Activity</h1>
        <button type="button" onClick={() => locationStore.show('panels')}>
          Back to the panel
        </button>
      </header>
      <p className="muted">
        Every change Paneldeck made at a panel, newest first, with what the panel answered. The newest{' '}
        {(log?.bound ?? 10_000).toLocaleString('en')} are kept; no token or password is ever written here.
      </p>
      <div className="activity-filters">
        <SearchField
          ref={search}
          label="Search the activity"
          placeholder="Search panel, action, outcome, answer"
          value={query}
          onSearch={setQuery}
        />
        {selected && (
          <label className="checkbox-label">
            <input type="checkbox" checked={onlySelected} onChange={(event) => setOnlySelected(event.target.checked)} />
            Only {selected.name}
          </label>
        )}
        {log && (
          <span className="muted" role="status">
            {entries.length === log.entries.length
              ? `${entries.length.toLocaleString('en')} entries`
              : `${entries.length.toLocaleString('en')} of ${log.entries.length.toLocaleString('en')} entries`}
          </span>
        )}
      </div>
      <ReadStates
        error={error}
        onRetry={() => setAttempt((count) => count + 1)}
        reading={log === null ? 'Reading the activity log…' : null}
        empty={
          log === null || entries.length > 0
            ? null
            : log.entries.length === 0
              ? 'Nothing yet. Each log out at a panel, deploy, start, stop and restart will be listed here with its outcome.'
              : 'No entry matches. Esc in the search box clears it.'
        }
      >
        <ActivityRows entries={entries} />
      </ReadStates>
    </section>
  );
}

/** The entries as a list that renders only the rows in view. */
function ActivityRows({ entries }: { entries: readonly ActivityEntry[] }) {
  const now = useNow();
  return (
    <VirtualRows
      items={entries}
      rowHeight={ROW_HEIGHT}
      label="Activity, newest first"
      keyOf={(entry) => entry.id}
      row={(entry, placement) => <ActivityRow entry={entry} now={now} placement={placement} />}
    />
  );
}

function ActivityRow({ entry, now, placement }: { entry: ActivityEntry; now: number; placement: RowPlacement }) {
  const at = Date.parse(entry.at);
  return (
    <li className={`activity-row outcome-${entry.outcome}`} {...placement}>
      <span className="activity-outcome">
        <span className="outcome-mark" aria-hidden="true" />
        {OUTCOME_NAMES[entry.outcome]}
      </span>
      <span className="activity-what" title={whatText(entry.what)}>
        {whatText(entry.what)}
      </span>
      <span className="activity-panel" title={entry.panelAddress}>
        {entry.panelName} <span className="muted">{entry.panelAddress}</span>
      </span>
      <time className="activity-when muted" dateTime={entry.at} title={new Date(at).toString()}>
        {whenText(new Date(at), new Date(now))}
      </time>
      <span className="activity-message" title={entry.message ?? undefined}>
        {entry.message ?? ''}
      </span>
    </li>
  );
}
