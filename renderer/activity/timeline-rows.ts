import { madeOnce } from '../../shared/made-once.ts';
import type { TimelineEntry, TimelineOutcome, TimelineWhoKind } from '../../shared/timeline.ts';
import { toCsv } from '../ui/csv.ts';

/** How each outcome is said beside its colour and shape. */
export const OUTCOME_NAMES: Readonly<Record<TimelineOutcome, string>> = {
  running: 'Under way',
  ok: 'Done',
  failed: 'Failed',
  unknown: 'Outcome unknown',
  'not-sent': 'Not sent',
};

/** Paneldeck's own actions and the panel's type words, as the list says them; any other word is shown as the panel wrote it. */
const KIND_NAMES: Readonly<Record<string, string>> = {
  logIn: 'Log in',
  logInWithApiToken: 'Log in with an API token',
  logOut: 'Log out (end the session at the panel)',
  logOutApiToken: 'Log out (the API token forgotten here)',
  deploy: 'Deploy',
  start: 'Start',
  stop: 'Stop',
  restart: 'Restart',
  operation: 'Console call',
  cancelDeploy: 'Cancel deployment',
  upgrade: 'Upgrade Easypanel',
  runBackup: 'Run a backup',
  backup: 'Database backup',
  volumeBackup: 'Volume backup',
  build: 'Build',
  deployment: 'Deployment',
  enable: 'Enable',
  disable: 'Disable',
};

/** "Restart", "build" as the panel wrote an unknown word. */
export function kindName(kind: string): string {
  return Object.hasOwn(KIND_NAMES, kind) ? (KIND_NAMES[kind] ?? kind) : kind;
}

/** "Restart shop/web", "Console call projects.createProject", "Log in". */
export function whatText(entry: TimelineEntry): string {
  const target = entry.operation ?? [entry.projectName, entry.serviceName].filter(Boolean).join('/');
  return target ? `${kindName(entry.kind)} ${target}` : kindName(entry.kind);
}

/** The filters the Activity view offers; null is "any". */
export interface TimelineFilter {
  panelId: string | null;
  /** An entry's `who` exactly (an e-mail, "Paneldeck", "system"…). */
  who: string | null;
  kind: string | null;
  outcome: TimelineOutcome | null;
  /** Every word must be found in panel, what, who, outcome or message. */
  query: string;
}

export const NO_FILTER: TimelineFilter = { panelId: null, who: null, kind: null, outcome: null, query: '' };

/** The text a search looks in, lower case, once per entry (an answer's entries never change). */
const searchTexts = new WeakMap<TimelineEntry, string>();

function searchText(entry: TimelineEntry): string {
  let text = searchTexts.get(entry);
  if (text === undefined) {
    text = [entry.panelName, whatText(entry), entry.who, OUTCOME_NAMES[entry.outcome], entry.outcome, entry.message ?? '']
      .join('\n')
      .toLowerCase();
    searchTexts.set(entry, text);
  }
  return text;
}

/** The entries that pass every filter, in the order given (newest first). */
export function filterTimeline(entries: readonly TimelineEntry[], filter: TimelineFilter): TimelineEntry[] {
  const words = filter.query.toLowerCase().split(/\s+/).filter(Boolean);
  return entries.filter(
    (entry) =>
      (filter.panelId === null || entry.panelId === filter.panelId) &&
      (filter.who === null || entry.who === filter.who) &&
      (filter.kind === null || entry.kind === filter.kind) &&
      (filter.outcome === null || entry.outcome === filter.outcome) &&
      words.every((word) => searchText(entry).includes(word)),
  );
}

/** What the filters can choose among, from the entries themselves: panels by name, people and kinds by how often. */
export interface FilterChoices {
  /** The panels to choose from, by name: the most recently active PANEL_CHOICES_AT_MOST when there are more. */
  panels: { id: string; name: string }[];
  /** How many panels with entries the choices leave out (the search box finds them). */
  morePanels: number;
  who: { who: string; whoKind: TimelineWhoKind }[];
  kinds: string[];
}

/**
 * A choice of panels longer than this is a list nobody reads (and ten thousand options cost a long
 * task to draw): the search box finds any panel by name.
 */
export const PANEL_CHOICES_AT_MOST = 200;
const byName = madeOnce(() => new Intl.Collator(undefined, { sensitivity: 'base', numeric: true }));

export function filterChoices(entries: readonly TimelineEntry[]): FilterChoices {
  const panels = new Map<string, string>();
  const who = new Map<string, { whoKind: TimelineWhoKind; count: number }>();
  const kinds = new Map<string, number>();
  for (const entry of entries) {
    panels.set(entry.panelId, entry.panelName);
    const seen = who.get(entry.who);
    who.set(entry.who, { whoKind: entry.whoKind, count: (seen?.count ?? 0) + 1 });
    kinds.set(entry.kind, (kinds.get(entry.kind) ?? 0) + 1);
  }
  // Entries come newest first, so the map holds the panels most recently active first.
  const listed = [...panels].slice(0, PANEL_CHOICES_AT_MOST);
  return {
    panels: listed.map(([id, name]) => ({ id, name })).sort((a, b) => byName().compare(a.name, b.name)),
    morePanels: panels.size - listed.length,
    who: [...who]
      .sort((a, b) => b[1].count - a[1].count || byName().compare(a[0], b[0]))
      .map(([name, { whoKind }]) => ({ who: name, whoKind })),
    kinds: [...kinds].sort((a, b) => b[1] - a[1] || byName().compare(a[0], b[0])).map(([kind]) => kind),
  };
}

const CSV_HEADER = ['When (UTC)', 'Panel', 'Project', 'Service', 'What', 'Outcome', 'Who', 'Recorded by', 'Message'];

/** The entries as CSV, in the order given; times as ISO 8601 (UTC), so a spreadsheet sorts them. */
export function timelineCsv(entries: readonly TimelineEntry[]): string {
  return toCsv([
    CSV_HEADER,
    ...entries.map((entry) => [
      entry.at ?? '',
      entry.panelName,
      entry.projectName ?? '',
      entry.serviceName ?? '',
      whatText(entry),
      OUTCOME_NAMES[entry.outcome],
      entry.who,
      entry.source === 'paneldeck' ? 'Paneldeck' : 'the panel',
      entry.message ?? '',
    ]),
  ]);
}
