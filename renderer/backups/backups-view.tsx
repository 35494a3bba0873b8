import { useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import type { BackupRunItem, BackupRunResult } from '../../shared/backups.ts';
import { plural } from '../../shared/counts.ts';
import { useMultiSelect } from '../panel-list/views.tsx';
import { ReadStates } from '../ui/read-states.tsx';
import { SearchField } from '../ui/search-field.tsx';
import { useKeptRead } from '../ui/use-kept-read.ts';
import { useWindowedRows, type WindowedRow } from '../ui/windowed-rows.ts';
import { usePanels, useWindowContext } from '../window/app-context.tsx';
import { failureInfo } from '../window/failure-info.ts';
import { type BackupGroup, type BackupListRow, type BackupsGrouping, backupGroups, lastRunText } from './backup-rows.ts';

const OUTCOME_WORDS: Readonly<Record<BackupRunResult['outcome'], string>> = {
  done: 'Started',
  failed: 'Failed',
  unknown: 'Unknown',
  cancelled: 'Not sent',
};

/**
 * Backups at a glance, across the fleet: the databases with no enabled backup first, then the
 * schedules whose last run failed, then the rest, by panel or by client; rows chosen (click, Shift,
 * Ctrl, the boxes) are run now by "Run N backups", which main confirms in its own window. Main
 * reads the backups once a day unless Refresh asks; every text is the panels' and shown as text.
 */
export function BackupsView() {
  const { api, locationStore } = useWindowContext();
  const { panels } = usePanels();
  const kept = useKeptRead((refresh) => api.listBackups(refresh ? { refresh: true } : undefined));
  const loaded = { read: kept.value, error: kept.error, reading: kept.reading };
  const [query, setQuery] = useState('');
  const [grouping, setGrouping] = useState<BackupsGrouping>('panel');
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [marked, setMarked] = useState<ReadonlySet<string>>(new Set());
  const [results, setResults] = useState<ReadonlyMap<string, BackupRunResult>>(new Map());
  const [running, setRunning] = useState(false);
  const [runError, setRunError] = useState<string | null>(null);
  const search = useRef<HTMLInputElement>(null);

  useEffect(() => search.current?.focus(), []);

  const panelInfo = useMemo(() => new Map((panels ?? []).map((panel) => [panel.id, { name: panel.name, group: panel.group }])), [panels]);
  const shownQuery = useDeferredValue(query);
  const groups = useMemo(
    () => (loaded.read ? backupGroups(loaded.read, panelInfo, grouping, shownQuery) : null),
    [loaded.read, panelInfo, grouping, shownQuery],
  );
  const runnable = useMemo(() => (groups ?? []).flatMap((group) => group.rows.filter((row) => row.schedule !== null)), [groups]);
  const selection = useMultiSelect({
    orderedIds: () => runnable.map((row) => row.key),
    selectedId,
    marked,
    onSelect: (id) => {
      setSelectedId(id);
      setMarked(new Set());
    },
    onMark: (ids, focusId) => {
      setSelectedId(focusId);
      setMarked(new Set(ids));
    },
  });
  const chosen = runnable.filter((row) => selection.isSelected(row.key));
  const unprotected = (groups ?? []).reduce((sum, group) => sum + group.rows.filter((row) => row.rowKind === 'unprotected').length, 0);
  const failed = (groups ?? []).reduce((sum, group) => sum + group.rows.filter((row) => row.rowKind === 'failed').length, 0);

  async function runChosen() {
    const items = chosen.flatMap((row): BackupRunItem[] =>
      row.schedule
        ? [
            {
              panelId: row.panelId,
              kind: row.schedule.kind,
              id: row.schedule.id,
              projectName: row.projectName,
              serviceName: row.serviceName,
            },
          ]
        : [],
    );
    setRunning(true);
    setRunError(null);
    try {
      const done = await api.runBackups(items);
      setResults((before) => {
        const next = new Map(before);
        for (const result of done) next.set(`${result.panelId}/${result.kind}/${result.id}`, result);
        return next;
      });
    } catch (caught) {
      setRunError(failureInfo(caught).message);
    } finally {
      setRunning(false);
    }
  }

  const select = (row: BackupListRow, event: { shiftKey: boolean; ctrlKey: boolean; metaKey: boolean }) => {
    if (event.shiftKey) selection.selectRange(row.key);
    else if (event.ctrlKey || event.metaKey) selection.toggle(row.key);
    else selection.chooseOne(row.key);
  };

  return (
    <section className="activity-view backups-view" aria-labelledby="backups-title">
      <header className="activity-header">
        <h1 id="backups-title">Backups</h1>
        <button type="button" onClick={() => locationStore.show('panels')}>
          Back to the panel
        </button>
      </header>
      <p className="muted">
        Each database's and volume's backup schedules with their last runs, the databases without an enabled backup first. Read once a day
        unless you refresh; a run is confirmed by Paneldeck before anything is sent.
      </p>
      <div className="activity-filters">
        <SearchField
          ref={search}
          label="Search the backups"
          placeholder="Search panel, client, service"
          value={query}
          onSearch={setQuery}
        />
        <fieldset className="layout-toggle backups-grouping">
          <legend>Group by</legend>
          {(['panel', 'group'] as const).map((key) => (
            <button key={key} type="button" className="button-small" aria-pressed={grouping === key} onClick={() => setGrouping(key)}>
              {key === 'panel' ? 'Panel' : 'Client'}
            </button>
          ))}
        </fieldset>
        <button type="button" disabled={loaded.reading} onClick={kept.refresh}>
          {loaded.reading && groups ? 'Reading…' : 'Refresh'}
        </button>
        <button type="button" className="button-primary" disabled={running || chosen.length === 0} onClick={() => void runChosen()}>
          {running ? 'Running…' : `Run ${plural(chosen.length, 'backup')}`}
        </button>
        {running && (
          <button type="button" onClick={() => void api.cancelBackups()}>
            Cancel
          </button>
        )}
        {groups && (
          <span className="muted" role="status">
            {plural(runnable.length, 'schedule')}
            {unprotected > 0 && `, ${plural(unprotected, 'database')} without a backup`}
            {failed > 0 && `, ${failed} failed last run${failed === 1 ? '' : 's'}`}
          </span>
        )}
      </div>
      {(runError ?? (loaded.error && groups ? loaded.error.message : null)) && (
        <div className="notice notice-error" role="alert">
          <p>{runError ?? loaded.error?.message}</p>
        </div>
      )}
      <ReadStates
        error={groups ? null : loaded.error}
        onRetry={kept.retry}
        reading={groups === null && !loaded.error ? 'Reading the backups of every signed-in panel…' : null}
        empty={
          groups === null || groups.length > 0
            ? null
            : loaded.read?.length === 0
              ? 'No backups to show: no panel is signed in.'
              : 'No backup matches. Esc in the search box clears it.'
        }
      >
        <BackupsTable
          groups={groups ?? []}
          grouping={grouping}
          results={results}
          isSelected={(row) => selection.isSelected(row.key)}
          onSelect={select}
          onToggle={(row) => selection.toggle(row.key)}
        />
      </ReadStates>
    </section>
  );
}

interface TableProps {
  groups: readonly BackupGroup[];
  grouping: BackupsGrouping;
  results: ReadonlyMap<string, BackupRunResult>;
  isSelected(row: BackupListRow): boolean;
  onSelect(row: BackupListRow, event: { shiftKey: boolean; ctrlKey: boolean; metaKey: boolean }): void;
  onToggle(row: BackupListRow): void;
}

/** A group's heading, or one of its rows: the table's lines in order, of which only those in view are drawn. */
type BackupLine = { kind: 'group'; key: string; group: BackupGroup } | { kind: 'row'; key: string; row: BackupListRow };

/** A line's height before it is measured: a heading grows by a line per problem it notes. */
const ROW_HEIGHT = 29;
const headingHeight = (group: BackupGroup) => 31 + 19 * group.problems.length;

/** The fleet's backups in one table, of which only the lines in view are in the page (ten thousand schedules cost what twenty do). */
function BackupsTable({ groups, grouping, results, isSelected, onSelect, onToggle }: TableProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const lines = useMemo(
    () =>
      groups.flatMap((group): BackupLine[] => [
        { kind: 'group', key: `group ${group.key}`, group },
        ...group.rows.map((row): BackupLine => ({ kind: 'row', key: row.key, row })),
      ]),
    [groups],
  );
  const { shown, margins, placed } = useWindowedRows(scroller, lines.length, (index) => {
    const line = lines[index]!;
    return line.kind === 'group' ? headingHeight(line.group) : ROW_HEIGHT;
  });
  return (
    <div className="backups-scroller" ref={scroller}>
      <table className="service-table backups-table" aria-rowcount={lines.length + 1} style={margins}>
        <thead>
          <tr>
            <th scope="col" className="backup-pick">
              <span className="visually-hidden">Chosen</span>
            </th>
            <th scope="col">Service</th>
            <th scope="col" className="backup-kind">
              Kind
            </th>
            <th scope="col" className="backup-schedule">
              Schedule
            </th>
            <th scope="col" className="backup-last">
              Last run
            </th>
            <th scope="col" className="backup-outcome">
              Run now
            </th>
          </tr>
        </thead>
        <tbody>
          {shown.map((virtual) => {
            const line = lines[virtual.index]!;
            if (line.kind === 'group')
              return <BackupHeading key={line.key} group={line.group} grouping={grouping} placed={placed(virtual.index)} />;
            const { row } = line;
            return (
              <BackupRow
                key={line.key}
                row={row}
                grouping={grouping}
                result={results.get(row.key)}
                selected={row.schedule !== null && isSelected(row)}
                onSelect={onSelect}
                onToggle={onToggle}
                placed={placed(virtual.index)}
              />
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function BackupHeading({ group, grouping, placed }: { group: BackupGroup; grouping: BackupsGrouping; placed: WindowedRow }) {
  return (
    <tr className="backup-group-line" {...placed}>
      <th scope="colgroup" colSpan={6}>
        {group.name}
        {group.problems.map(({ panelName, problem }) => (
          <span key={panelName} className="backup-problem" role="note">
            {grouping === 'group' ? `${panelName}: ${problem}` : problem}
          </span>
        ))}
      </th>
    </tr>
  );
}

interface RowProps {
  row: BackupListRow;
  grouping: BackupsGrouping;
  result: BackupRunResult | undefined;
  selected: boolean;
  onSelect(row: BackupListRow, event: { shiftKey: boolean; ctrlKey: boolean; metaKey: boolean }): void;
  onToggle(row: BackupListRow): void;
  placed: WindowedRow;
}

function BackupRow({ row, grouping, result, selected, onSelect, onToggle, placed }: RowProps) {
  return (
    <tr
      className={`backup-row backup-${row.rowKind}${selected ? ' backup-selected' : ''}`}
      aria-selected={row.schedule ? selected : undefined}
      onClick={(event) => row.schedule && onSelect(row, event)}
      {...placed}
    >
      <td className="backup-pick">
        {row.schedule && (
          <input
            type="checkbox"
            aria-label={`Choose ${row.projectName}/${row.serviceName} ${row.schedule.kind} backup`}
            checked={selected}
            onClick={(event) => event.stopPropagation()}
            onChange={() => onToggle(row)}
          />
        )}
      </td>
      <td title={`${row.projectName}/${row.serviceName}`}>
        {grouping === 'group' && <span className="muted">{row.panelName} · </span>}
        {row.projectName}/{row.serviceName}
      </td>
      <td className="backup-kind">{row.schedule ? (row.schedule.kind === 'database' ? 'Database' : 'Volume') : 'Database'}</td>
      <td className="backup-schedule" title={row.schedule?.schedule}>
        {row.schedule ? `${row.schedule.schedule || '—'}${row.schedule.enabled ? '' : ' (off)'}` : '—'}
      </td>
      <td className="backup-last">{lastRunText(row.schedule)}</td>
      <td className="backup-outcome" title={result?.message ?? undefined}>
        {result ? OUTCOME_WORDS[result.outcome] : ''}
        {result?.message && <span className="backup-outcome-message">{result.message}</span>}
      </td>
    </tr>
  );
}
