import { compareText } from '../../shared/text-compare.ts';
import type { BackupSchedule, PanelBackups } from '../../shared/backups.ts';
import { NO_GROUP } from '../panel-list/index.ts';

/**
 * The Backups view's rows, free of React: unprotected databases first, then schedules whose last
 * run failed, then the rest, under a line per panel or per client (the panel's group), each
 * group line carrying its panels' problems.
 */

export type BackupsGrouping = 'panel' | 'group';

/** What a row is about, in the order shown. */
export type BackupRowKind = 'unprotected' | 'failed' | 'scheduled';

export interface BackupListRow {
  /** Unique in the view: the panel, the kind and the schedule's id (an unprotected database has none). */
  key: string;
  panelId: string;
  panelName: string;
  rowKind: BackupRowKind;
  projectName: string;
  serviceName: string;
  /** The schedule; null for an unprotected database (nothing to run). */
  schedule: BackupSchedule | null;
}

export interface BackupGroup {
  key: string;
  name: string;
  /** The problems of its panels' last reads, each with its panel's name. */
  problems: { panelName: string; problem: string }[];
  rows: BackupListRow[];
}

export interface PanelInfo {
  name: string;
  group: string | null;
}

const RANK: Readonly<Record<BackupRowKind, number>> = { unprotected: 0, failed: 1, scheduled: 2 };

export const backupRowKey = (panelId: string, schedule: Pick<BackupSchedule, 'kind' | 'id'>) =>
  `${panelId}/${schedule.kind}/${schedule.id}`;

function rowsOf(panel: PanelBackups, panelName: string): BackupListRow[] {
  const unprotected = panel.unprotected.map(
    ({ projectName, serviceName }): BackupListRow => ({
      key: `${panel.panelId}/unprotected/${projectName}/${serviceName}`,
      panelId: panel.panelId,
      panelName,
      rowKind: 'unprotected',
      projectName,
      serviceName,
      schedule: null,
    }),
  );
  const schedules = panel.backups.map(
    (schedule): BackupListRow => ({
      key: backupRowKey(panel.panelId, schedule),
      panelId: panel.panelId,
      panelName,
      rowKind: schedule.lastRun?.status === 'error' ? 'failed' : 'scheduled',
      projectName: schedule.projectName,
      serviceName: schedule.serviceName,
      schedule,
    }),
  );
  return [...unprotected, ...schedules];
}

const byRank = (a: BackupListRow, b: BackupListRow) =>
  RANK[a.rowKind] - RANK[b.rowKind] ||
  compareText(a.panelName, b.panelName) ||
  compareText(a.projectName, b.projectName) ||
  compareText(a.serviceName, b.serviceName) ||
  compareText(a.key, b.key);

/** Every word of `query` found in the row (panel, service, kind, schedule) or its panel's client, case aside. */
function matches(row: BackupListRow, client: string, words: readonly string[]): boolean {
  const text = [
    row.panelName,
    client,
    row.projectName,
    row.serviceName,
    row.rowKind === 'unprotected' ? 'no backup unprotected' : `${row.schedule?.kind} ${row.schedule?.schedule}`,
    row.rowKind === 'failed' ? 'failed' : '',
  ]
    .join(' ')
    .toLowerCase();
  return words.every((word) => text.includes(word));
}

/** The groups as shown: those with something to see first (unprotected, failed), then by name; a panel removed since is left out. */
export function backupGroups(
  read: readonly PanelBackups[],
  panels: ReadonlyMap<string, PanelInfo>,
  grouping: BackupsGrouping,
  query: string,
): BackupGroup[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const groups = new Map<string, BackupGroup>();
  for (const panel of read) {
    const info = panels.get(panel.panelId);
    if (!info) continue;
    const name = grouping === 'panel' ? info.name : (info.group ?? NO_GROUP);
    const key = grouping === 'panel' ? panel.panelId : `group:${name}`;
    const group = groups.get(key) ?? { key, name, problems: [], rows: [] };
    if (panel.problem !== null) group.problems.push({ panelName: info.name, problem: panel.problem });
    // The client is searched whichever way the rows are grouped.
    const rows = rowsOf(panel, info.name);
    // Nothing typed: no row's text is built (ten thousand panels' rows would be, on each read).
    group.rows.push(...(words.length === 0 ? rows : rows.filter((row) => matches(row, info.group ?? '', words))));
    groups.set(key, group);
  }
  const shown = [...groups.values()].filter((group) => group.rows.length > 0 || (words.length === 0 && group.problems.length > 0));
  for (const group of shown) group.rows.sort(byRank);
  // Each group's best rank once, not at each of the sort's comparisons (a hundred thousand over ten thousand groups).
  const best = new Map(shown.map((group) => [group, bestRank(group.rows)]));
  return shown.sort((a, b) => best.get(a)! - best.get(b)! || compareText(a.name, b.name));
}

/** The rank of a group's most pressing row (its rows are sorted): a group of only problems after those with rows. */
function bestRank(sortedRows: readonly BackupListRow[]): number {
  const first = sortedRows[0];
  return first === undefined ? 2.5 : RANK[first.rowKind];
}

/** A run's last time as the view says it: "Failed 3 Dec, 03:00", "Never run". */
export function lastRunText(schedule: BackupSchedule | null): string {
  if (schedule === null) return 'No enabled backup';
  const run = schedule.lastRun;
  if (run === null) return 'Never run';
  const at = new Date(Date.parse(run.at));
  // The day as the locale says it, the time on 24 hours whatever the locale: short, and never "AM".
  const time = `${String(at.getHours()).padStart(2, '0')}:${String(at.getMinutes()).padStart(2, '0')}`;
  const when = `${at.toLocaleDateString(undefined, { day: 'numeric', month: 'short' })} ${time}`;
  const word = { done: 'Done', error: 'Failed', running: 'Running', killed: 'Stopped', unknown: 'Unknown' }[run.status];
  return `${word} ${when}`;
}
