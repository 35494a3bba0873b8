import type { DeploymentStatus } from './deployments.ts';
import type { ActivityEntry, ActivityOutcome } from './types.ts';

/**
 * The timeline: one list of who did what, on every panel, newest first. It merges Paneldeck's own
 * activity log (its log ins, log outs and writes) with each panel's own actions history
 * (`listActions`, read by the checks), so that "who restarted this?" has an answer when a
 * colleague did it in the dashboard. Pure: no I/O.
 */

/** Actions kept of each panel: its newest, as the last read found them. */
export const PANEL_ACTIONS_KEPT = 50;
/** Longest e-mail address kept of a panel's action (RFC 5321's bound on a path). */
export const ACTION_EMAIL_MAX = 254;
/** Entries a timeline answer holds at most: 200 panels' actions plus as many of Paneldeck's own. */
export const TIMELINE_BOUND = 20_000;

/** One action as a panel's actions history lists it, cut to what the timeline shows. */
export interface PanelAction {
  id: string;
  /** The panel's word for it (build, deployment, start, stop, restart, …), cut and cleaned. */
  type: string;
  status: DeploymentStatus;
  projectName: string | null;
  serviceName: string | null;
  startedAt: string | null;
  finishedAt: string | null;
  /** Who started it, as the panel says: its user's e-mail, or null when it names none. */
  userEmail: string | null;
  isApiAction: boolean;
  isSystemAction: boolean;
}

/** A panel's actions as its last read found them, or why the last read failed (the earlier ones kept). */
export interface PanelActionsRead {
  panelId: string;
  panelName: string;
  /** When the kept actions were read; null when never. */
  readAt: string | null;
  actions: readonly PanelAction[];
  /** The last read's failure in words, or null when it worked. */
  problem: string | null;
}

/** Who did it: a person (the panel's user e-mail), Paneldeck (this app), the panel's API, the panel itself. */
export type TimelineWhoKind = 'person' | 'paneldeck' | 'api' | 'system' | 'unknown';

/** What an entry came to, in one set of words for both sources. */
export type TimelineOutcome = 'ok' | 'failed' | 'running' | 'unknown' | 'not-sent';

export interface TimelineEntry {
  /** `paneldeck:<activity id>` or `panel:<panel id>:<action id>`. */
  id: string;
  source: 'paneldeck' | 'panel';
  /** When it began (ISO); null when the panel gave no time. */
  at: string | null;
  panelId: string;
  panelName: string;
  projectName: string | null;
  serviceName: string | null;
  /** The kind of thing done: Paneldeck's action (`logIn`, `restart`, …) or the panel's type word. */
  kind: string;
  /** A console write's operation name; null otherwise. */
  operation: string | null;
  outcome: TimelineOutcome;
  who: string;
  whoKind: TimelineWhoKind;
  /** Paneldeck's words of the outcome, or null. */
  message: string | null;
}

export interface TimelineList {
  entries: TimelineEntry[];
  bound: number;
  /** Panels whose last actions read failed, with why: their rows are the earlier read's (or none). */
  unread: { panelId: string; panelName: string; problem: string }[];
}

const ACTIVITY_OUTCOMES: Readonly<Record<ActivityOutcome, TimelineOutcome>> = {
  pending: 'running',
  ok: 'ok',
  failed: 'failed',
  unknown: 'unknown',
  'not-sent': 'not-sent',
};

const ACTION_OUTCOMES: Readonly<Record<DeploymentStatus, TimelineOutcome>> = {
  running: 'running',
  done: 'ok',
  error: 'failed',
  killed: 'failed',
  unknown: 'unknown',
};

/** Who did a panel's action, by what the panel says of it; the system and the API come before any e-mail. */
export function actionWho(action: PanelAction): { who: string; whoKind: TimelineWhoKind } {
  if (action.isSystemAction) return { who: 'system', whoKind: 'system' };
  if (action.isApiAction) return { who: action.userEmail ? `API (${action.userEmail})` : 'API', whoKind: 'api' };
  if (action.userEmail) return { who: action.userEmail, whoKind: 'person' };
  return { who: 'unknown', whoKind: 'unknown' };
}

/** The panel's type words Paneldeck's own actions leave there (a deploy is a build then a deployment). */
const PANEL_TYPES_OF: Readonly<Record<string, readonly string[]>> = {
  deploy: ['build', 'deployment', 'deploy'],
  start: ['start'],
  stop: ['stop'],
  restart: ['restart'],
};
/** A panel's action within this long after Paneldeck's write of the same kind to the same service is taken as that write. */
export const MATCH_WINDOW_MS = 2 * 60_000;

/** Paneldeck's service writes by panel and service: a fleet's 10,000 actions each look only at their own service's writes. */
function writesByService(activity: readonly ActivityEntry[]): Map<string, ActivityEntry[]> {
  const writes = new Map<string, ActivityEntry[]>();
  for (const entry of activity) {
    if (PANEL_TYPES_OF[entry.what.action] === undefined) continue;
    const key = serviceKey(entry.panelId, entry.what.projectName ?? null, entry.what.serviceName ?? null);
    const service = writes.get(key);
    if (service) service.push(entry);
    else writes.set(key, [entry]);
  }
  return writes;
}

const serviceKey = (panelId: string, projectName: string | null, serviceName: string | null) =>
  JSON.stringify([panelId, projectName, serviceName]);

/** The write of `writes` (Paneldeck's, to this action's service) that `action` is taken to be, by kind and time; null when none. */
function matchingWrite(action: PanelAction, writes: readonly ActivityEntry[]): ActivityEntry | null {
  const at = action.startedAt === null ? Number.NaN : Date.parse(action.startedAt);
  if (!Number.isFinite(at)) return null;
  for (const write of writes) {
    if (!PANEL_TYPES_OF[write.what.action]?.includes(action.type)) continue;
    const sent = Date.parse(write.at);
    if (at >= sent - 5_000 && at - sent <= MATCH_WINDOW_MS) return write;
  }
  return null;
}

/**
 * One timeline of Paneldeck's entries and the panels' actions, newest first (an action without a
 * time last), at most `bound`. A panel's action that matches a write Paneldeck sent (same panel,
 * service and kind, begun within `MATCH_WINDOW_MS`) is said to be Paneldeck's: both rows stay.
 */
export function mergeTimeline(
  activity: readonly ActivityEntry[],
  panels: readonly PanelActionsRead[],
  bound = TIMELINE_BOUND,
): TimelineList {
  const entries: TimelineEntry[] = activity.map((entry) => ({
    id: `paneldeck:${entry.id}`,
    source: 'paneldeck',
    at: entry.at,
    panelId: entry.panelId,
    panelName: entry.panelName,
    projectName: entry.what.projectName ?? null,
    serviceName: entry.what.serviceName ?? null,
    kind: entry.what.action,
    operation: entry.what.operation ?? null,
    outcome: ACTIVITY_OUTCOMES[entry.outcome],
    // The account it went as, when the entry kept it: a panel may be signed in as a limited user.
    who: entry.account ? `Paneldeck (${entry.account})` : 'Paneldeck',
    whoKind: 'paneldeck',
    message: entry.message,
  }));
  const writes = writesByService(activity);
  for (const read of panels) {
    for (const action of read.actions) {
      const sent = matchingWrite(action, writes.get(serviceKey(read.panelId, action.projectName, action.serviceName)) ?? []);
      const { who, whoKind } = sent
        ? { who: action.userEmail ? `Paneldeck (${action.userEmail})` : 'Paneldeck', whoKind: 'paneldeck' as const }
        : actionWho(action);
      entries.push({
        id: `panel:${read.panelId}:${action.id}`,
        source: 'panel',
        at: action.startedAt,
        panelId: read.panelId,
        panelName: read.panelName,
        projectName: action.projectName,
        serviceName: action.serviceName,
        kind: action.type,
        operation: null,
        outcome: ACTION_OUTCOMES[action.status],
        who,
        whoKind,
        message: null,
      });
    }
  }
  const time = (entry: TimelineEntry) => (entry.at === null ? Number.NEGATIVE_INFINITY : Date.parse(entry.at));
  entries.sort((a, b) => time(b) - time(a) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const unread = panels.flatMap((read) =>
    read.problem ? [{ panelId: read.panelId, panelName: read.panelName, problem: read.problem }] : [],
  );
  return { entries: entries.slice(0, bound), bound, unread };
}
