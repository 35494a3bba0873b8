import { useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import type { ErrorInfo } from '../../shared/contract/errors.ts';
import { PANEL_ACTIONS_KEPT, TIMELINE_BOUND, type TimelineEntry, type TimelineList, type TimelineOutcome } from '../../shared/timeline.ts';
import {
  filterChoices,
  filterTimeline,
  kindName,
  NO_FILTER,
  OUTCOME_NAMES,
  type TimelineFilter,
  timelineCsv,
  whatText,
} from './timeline-rows.ts';
import { useNow, useRevisions, useWindowContext } from '../window/app-context.tsx';
import { failureInfo } from '../window/failure-info.ts';
import { ReadStates } from '../ui/read-states.tsx';
import { SearchField } from '../ui/search-field.tsx';
import { type RowPlacement, VirtualRows } from '../ui/virtual-rows.tsx';
import { whenText } from './when-text.ts';

/** Each entry is one row this high (two lines): the list draws only the rows in view, so twenty thousand cost what twenty do. */
const ROW_HEIGHT = 58;
/**
 * Who did what, on every panel: Paneldeck's own log ins, log outs and writes, and each panel's
 * actions history as the checks last read it, newest first (`listTimeline`). Read from main when
 * shown and again at each `activityChanged`; filtered by panel, person, kind, outcome and a
 * search; saved as CSV in the order shown.
 */
export function ActivityView() {
  const { api, locationStore } = useWindowContext();
  const { activity: activityRevision } = useRevisions();
  const [timeline, setTimeline] = useState<TimelineList | null>(null);
  const [error, setError] = useState<ErrorInfo | null>(null);
  const [attempt, setAttempt] = useState(0);
  const [filter, setFilter] = useState<TimelineFilter>(NO_FILTER);
  const [note, setNote] = useState('');
  const search = useRef<HTMLInputElement>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: read again at each change main reports and at each Try again
  useEffect(() => {
    let current = true;
    // A reload while one is in flight: only the newest answer is shown.
    api.listTimeline().then(
      (answer) => {
        if (!current) return;
        setTimeline(answer);
        setError(null);
      },
      (caught: unknown) => current && setError(failureInfo(caught)),
    );
    return () => {
      current = false;
    };
  }, [api, activityRevision, attempt]);

  useEffect(() => search.current?.focus(), []);

  const shownFilter = useDeferredValue(filter);
  const entries = useMemo(() => (timeline ? filterTimeline(timeline.entries, shownFilter) : []), [timeline, shownFilter]);
  const choices = useMemo(() => filterChoices(timeline?.entries ?? []), [timeline]);
  const filtered = filter.panelId !== null || filter.who !== null || filter.kind !== null || filter.outcome !== null;
  const choose = (change: Partial<TimelineFilter>) => setFilter((before) => ({ ...before, ...change }));

  const saveCsv = async () => {
    try {
      const name = `paneldeck-activity-${new Date().toISOString().slice(0, 10)}.csv`;
      const { path } = await api.saveTextFile({ name, text: timelineCsv(entries) });
      setNote(path === null ? 'Not saved.' : `Saved ${entries.length.toLocaleString('en')} entries as CSV to ${path}, in the order shown.`);
    } catch (caught) {
      setNote(failureInfo(caught).message);
    }
  };

  return (
    <section className="activity-view" aria-labelledby="activity-title">
      <header className="activity-header">
        <h1 id="activity-title">Activity</h1>
        <button type="button" onClick={() => locationStore.show('panels')}>
          Back to the panel
        </button>
      </header>
      <p className="muted activity-intro">
        Who did what on each panel, newest first: Paneldeck's own log ins and changes, and the last {PANEL_ACTIONS_KEPT} actions each panel
        records, as the checks read them. No token or password is kept here.
      </p>
      <div className="activity-filters">
        <SearchField
          ref={search}
          label="Search the activity"
          placeholder="Search panel, action, person, outcome"
          value={filter.query}
          onSearch={(query) => choose({ query })}
        />
        <FilterSelect
          label="Panel"
          value={filter.panelId}
          onChange={(panelId) => choose({ panelId })}
          options={choices.panels.map((panel) => ({ value: panel.id, text: panel.name }))}
          all="All panels"
          more={choices.morePanels > 0 ? `${choices.morePanels.toLocaleString('en')} more: the search finds them` : null}
        />
        <FilterSelect
          label="Who"
          value={filter.who}
          onChange={(who) => choose({ who })}
          options={choices.who.map((one) => ({ value: one.who, text: one.who }))}
          all="Anyone"
        />
        <FilterSelect
          label="Kind"
          value={filter.kind}
          onChange={(kind) => choose({ kind })}
          options={choices.kinds.map((kind) => ({ value: kind, text: kindName(kind) }))}
          all="Any kind"
        />
        <FilterSelect
          label="Outcome"
          value={filter.outcome}
          onChange={(outcome) => choose({ outcome: outcome as TimelineOutcome | null })}
          options={Object.entries(OUTCOME_NAMES).map(([value, text]) => ({ value, text }))}
          all="Any outcome"
        />
        {timeline && (
          <span
            className="muted"
            role="status"
            title={`At most ${(timeline.bound ?? TIMELINE_BOUND).toLocaleString('en')} entries are listed.`}
          >
            {entries.length === timeline.entries.length
              ? `${entries.length.toLocaleString('en')} entries`
              : `${entries.length.toLocaleString('en')} of ${timeline.entries.length.toLocaleString('en')} entries`}
          </span>
        )}
        {filtered && (
          <button type="button" className="button-small" onClick={() => setFilter(NO_FILTER)}>
            Clear filters
          </button>
        )}
        <button type="button" className="button-small" disabled={entries.length === 0} onClick={() => void saveCsv()}>
          Save as CSV…
        </button>
        {note && <span className="muted">{note}</span>}
      </div>
      {timeline && timeline.unread.length > 0 && (
        <p className="activity-unread" title={timeline.unread.map((one) => `${one.panelName}: ${one.problem}`).join('\n')}>
          {timeline.unread.length === 1
            ? `${timeline.unread[0]?.panelName}'s actions could not be read at its last check (${timeline.unread[0]?.problem}); its earlier ones are shown.`
            : `The actions of ${timeline.unread.length.toLocaleString('en')} panels could not be read at their last check; their earlier ones are shown.`}
        </p>
      )}
      <ReadStates
        error={error}
        onRetry={() => setAttempt((count) => count + 1)}
        reading={timeline === null ? 'Reading the activity…' : null}
        empty={
          timeline === null || entries.length > 0
            ? null
            : timeline.entries.length === 0
              ? 'Nothing yet. Each log in, log out, deploy, start, stop and restart will be listed here, and what each panel records once it is checked.'
              : 'No entry matches. Esc in the search box clears the search.'
        }
      >
        <TimelineRows entries={entries} />
      </ReadStates>
    </section>
  );
}

/** A filter's choice among `options`, or `all`. */
function FilterSelect({
  label,
  value,
  options,
  all,
  more = null,
  onChange,
}: {
  label: string;
  value: string | null;
  options: readonly { value: string; text: string }[];
  all: string;
  /** What the options leave out, said as the last (disabled) option; null when nothing. */
  more?: string | null;
  onChange: (value: string | null) => void;
}) {
  return (
    <label className="activity-filter">
      <span aria-hidden="true">{label}</span>
      <select aria-label={label} value={value ?? ''} onChange={(event) => onChange(event.target.value === '' ? null : event.target.value)}>
        <option value="">{all}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.text}
          </option>
        ))}
        {more && <option disabled>{more}</option>}
      </select>
    </label>
  );
}

/** The entries as a list that renders only the rows in view. */
function TimelineRows({ entries }: { entries: readonly TimelineEntry[] }) {
  const now = useNow();
  return (
    <VirtualRows
      items={entries}
      rowHeight={ROW_HEIGHT}
      label="Activity, newest first"
      keyOf={(entry) => entry.id}
      row={(entry, placement) => <TimelineRow entry={entry} now={now} placement={placement} />}
    />
  );
}

function TimelineRow({ entry, now, placement }: { entry: TimelineEntry; now: number; placement: RowPlacement }) {
  const at = entry.at === null ? null : Date.parse(entry.at);
  const what = whatText(entry);
  return (
    <li className={`activity-row outcome-${entry.outcome} source-${entry.source}`} {...placement}>
      <span className="activity-outcome">
        <span className="outcome-mark" aria-hidden="true" />
        {OUTCOME_NAMES[entry.outcome]}
      </span>
      <span className="activity-what" title={what}>
        {what}
      </span>
      <span className="activity-panel" title={entry.panelName}>
        {entry.panelName}
      </span>
      {at === null ? (
        <span className="activity-when muted">no time given</span>
      ) : (
        <time className="activity-when muted" dateTime={entry.at ?? undefined} title={new Date(at).toString()}>
          {whenText(new Date(at), new Date(now))}
        </time>
      )}
      <span className={`activity-who who-${entry.whoKind}`} title={entry.who}>
        {entry.who}
      </span>
      <span className="activity-message" title={entry.message ?? undefined}>
        {entry.message ?? ''}
      </span>
    </li>
  );
}
