import { type ErrorInfo, PanelError } from '../../../shared/contract/errors.ts';
import { DOWN_NAMES_MAX, HEALTH_PROBLEM_MAX, type PanelHealth } from '../../../shared/fleet-state.ts';
import { callPanel, MissingRouteError, type RequestName } from '../easypanel/panel-calls.ts';
import type { RequestSettings } from '../easypanel/panel-endpoints.ts';
import { readLoad, type ServerLoad } from '../easypanel/server-load.ts';
import { countStates, type ReadList, readServiceList, rosterStates, type RosterEntry } from '../easypanel/service-answers.ts';
import type { StoredHealth } from '../storage/health-record.ts';
import { serverLoadProblem, taskStatsProblem } from './state-reading.ts';
import type { PanelRecord } from '../storage/panel-registry.ts';
import type { KeptServices } from '../services/kept-services.ts';
import type { ChangeBatcher } from '../context/change-batchers.ts';
import type { DeploysUnderWay } from '../services/service-reads.ts';
import type { DataFolder } from '../storage/data-folder.ts';
import { type SessionReader, versionPeriodMs } from '../sign-in/session-reader.ts';

/** The list of services is read again at every this many state reads of a panel (and when the task stats name a new one). */
export const LIST_EVERY_READS = 10;

export interface FleetStateOptions {
  request: RequestSettings;
  now(): Date;
  reader: SessionReader;
  deploys: DeploysUnderWay;
  /** Told each panel whose state was recorded: the `fleetStateChanged` events. */
  changes: ChangeBatcher;
  /** Where each read's services are kept for the fleet's Services view. */
  services: KeptServices;
}

/** The services of a panel as last listed, in memory only; the first check after a start lists them again. */
interface Roster {
  services: RosterEntry[];
  /** The panel listed more than `MAX_LISTED_SERVICES`. */
  truncated: boolean;
  /** Task stats keys seen when it was read: one the list lacked then (an orphan task) does not ask for the list at every check. */
  known: Set<string>;
  readsSince: number;
}

type Outcome<T = unknown> = { ok: true; value: T } | { ok: false; error: PanelError };

/** A panel whose connection failed or timed out is not asked for more in this check. */
const UNREACHABLE: ReadonlySet<string> = new Set(['NETWORK', 'TIMEOUT', 'CANCELLED']);

/**
 * Reads, within a check and after its session read, what a panel runs and the server's load:
 * the task stats, the system stats, and the list of services when it is due (never read, every
 * `LIST_EVERY_READS` reads, or the task stats name a service not listed). One request at a time,
 * so a panel's reads stay inside its one slot of the check's bound. Records the outcome as the
 * panel's state in the check history (coalesced). A failure is kept as the state's `problem`
 * and never fails the check; a 401/403 ends the sign-in and fails it, as a session read's would.
 */
export class FleetStateReader {
  readonly #options: FleetStateOptions;
  readonly #rosters = new Map<string, Roster>();
  /**
   * When each panel last had neither state route (404, 405 on both: a proxy, or a panel that is no
   * Easypanel): its state is not asked for again until its version period passed, so such a panel
   * costs its checks no more requests than before.
   */
  readonly #routesMissingAt = new Map<string, number>();
  /** The services down at each panel's last read, until the alerts took them (`takeDown`). */
  readonly #down = new Map<string, string[] | null>();

  constructor(options: FleetStateOptions) {
    this.#options = options;
  }

  /** Resolves with the refusal that ended the sign-in (the check's outcome), else null; never rejects. */
  async read(state: DataFolder, record: PanelRecord, token: string, signal: AbortSignal): Promise<ErrorInfo | null> {
    const missingAt = this.#routesMissingAt.get(record.id);
    const nowMs = this.#options.now().getTime();
    if (missingAt !== undefined && nowMs - missingAt < versionPeriodMs(record.id)) return null;
    // Stopped, unsent, when the sign-in ends meanwhile (a log out, a removal).
    const signedIn = this.#options.reader.whileSignedIn(record.id, signal);
    try {
      return await this.#readWith(state, record, token, signedIn.signal, nowMs);
    } finally {
      signedIn.done();
    }
  }

  async #readWith(state: DataFolder, record: PanelRecord, token: string, signal: AbortSignal, nowMs: number): Promise<ErrorInfo | null> {
    const problems: PanelError[] = [];
    let reachable = true;
    const attempt = async <T>(read: () => Promise<T>): Promise<Outcome<T> | null> => {
      if (!reachable) return null;
      try {
        return { ok: true, value: await read() };
      } catch (error) {
        const failure = error instanceof PanelError ? error : new PanelError('INTERNAL', 'Reading the state failed unexpectedly.');
        problems.push(failure);
        reachable = !UNREACHABLE.has(failure.code) && failure.code !== 'UNAUTHORIZED';
        return { ok: false, error: failure };
      }
    };
    const call = (name: RequestName) => attempt(() => callPanel(this.#options.request, record, token, name, undefined, { signal }));
    // An answer that came but says nothing Paneldeck reads fails the read as a broken one does.
    const understood = <T>(outcome: Outcome<T> | null, problemOf: (value: T) => PanelError | null): Outcome<T> | null => {
      const problem = outcome?.ok ? problemOf(outcome.value) : null;
      if (!problem) return outcome;
      problems.push(problem);
      return { ok: false, error: problem };
    };
    const stats = understood(await call('getDockerTaskStats'), taskStatsProblem);
    const { roster, listFailure } = stats?.ok ? await this.#rosterFor(record.id, stats.value, call) : { roster: null, listFailure: null };
    const load = understood(await attempt(() => readLoad(this.#options.request, record, token, { signal })), serverLoadProblem);
    const refused = problems.find((problem) => problem.code === 'UNAUTHORIZED');
    if (refused) {
      // The sign-in may have ended while the state was read (a log out, a removal, a new log in):
      // then the refusal was of a token no longer the panel's, and it ends nothing, nor fails the check.
      const current = state.registry.get(record.id);
      if (!current || state.vault.token(record.id, current.baseUrl) !== token) return null;
      await this.#options.reader.recordFailure(state, record, token, refused);
      return refused.toInfo();
    }
    // Cancelled: the check records nothing either.
    if (problems.some((problem) => problem.code === 'CANCELLED')) return null;
    const routesMissing =
      stats?.ok === false && load?.ok === false && stats.error instanceof MissingRouteError && load.error instanceof MissingRouteError;
    if (routesMissing) this.#routesMissingAt.set(record.id, nowMs);
    else this.#routesMissingAt.delete(record.id);
    const deploying = (projectName: string, name: string) => this.#options.deploys.has(record.id, projectName, name);
    const counted = stats?.ok ? countStates(roster?.services ?? null, stats.value, deploying) : null;
    this.#down.set(record.id, counted?.down ?? null);
    const read: StateRead = { counts: counted?.counts ?? null, down: counted?.down ?? null, load: load?.ok ? load.value : null };
    const at = this.#record(state, record.id, read, problems, routesMissing);
    if (at === null || state.vault.token(record.id, state.registry.get(record.id)?.baseUrl ?? '') !== token) return null;
    if (stats?.ok === false) this.#options.services.failed(record.id, at, stats.error);
    else if (stats?.ok && roster === null && listFailure) this.#options.services.failed(record.id, at, listFailure);
    else if (stats?.ok && roster !== null) {
      const services = rosterStates(roster.services, stats.value, deploying).map(({ entry, state: serviceState, replicas }) => ({
        projectName: entry.projectName,
        name: entry.name,
        type: entry.type,
        state: serviceState,
        replicas,
      }));
      this.#options.services.read(record.id, { readAt: at, services, truncated: roster.truncated });
    }
    return null;
  }

  /**
   * A panel's list of services read by `listServices`, with the task stats read beside it (null
   * when they could not be): kept as the roster checks count by, and as the panel's services.
   */
  listed(panelId: string, read: ReadList, taskStats: unknown, readAt: string, statsFailure: PanelError | null): void {
    const services = read.services.map(({ projectName, name, type, state }) => ({
      projectName,
      name,
      type,
      disabled: state === 'disabled',
    }));
    const known = taskStats === null ? new Set<string>() : new Set(countStates(services, taskStats).unlisted);
    this.#rosters.set(panelId, { services, truncated: read.truncated, known, readsSince: 0 });
    this.#options.services.read(panelId, { readAt, services: read.services, truncated: read.truncated });
    if (statsFailure) this.#options.services.failed(panelId, readAt, statsFailure);
  }

  /** The services ("project/service") the panel's last read found down, once; null when it could not name them. */
  takeDown(panelId: string): string[] | null {
    const down = this.#down.get(panelId) ?? null;
    this.#down.delete(panelId);
    return down;
  }

  /** Forgets the panel's services (removed, or moved to another address). */
  forget(panelId: string): void {
    this.#rosters.delete(panelId);
    this.#down.delete(panelId);
    this.#routesMissingAt.delete(panelId);
    this.#options.services.gone(panelId);
  }

  /** The panel's last state as the contract gives it, or null when none was read. */
  health(state: Pick<DataFolder, 'history'>, panelId: string): PanelHealth | null {
    const { health, panelVersion } = state.history.get(panelId);
    return health && { panelId, ...health, version: panelVersion };
  }

  /** The kept list, read again when due; a failed list read keeps the last one (or none). */
  async #rosterFor(
    panelId: string,
    taskStats: unknown,
    call: (name: RequestName) => Promise<Outcome | null>,
  ): Promise<{ roster: Roster | null; listFailure: PanelError | null }> {
    const kept = this.#rosters.get(panelId) ?? null;
    const due = kept === null || kept.readsSince + 1 >= LIST_EVERY_READS || hasUnknownKey(taskStats, kept);
    if (!due) {
      kept.readsSince++;
      return { roster: kept, listFailure: null };
    }
    const list = await call('listProjectsAndServices');
    if (!list?.ok) return { roster: kept, listFailure: list?.error ?? null };
    const read = readServiceList(list.value, null);
    const services = read.services.map(({ projectName, name, type, state }) => ({
      projectName,
      name,
      type,
      disabled: state === 'disabled',
    }));
    const { unlisted } = countStates(services, taskStats);
    const roster: Roster = { services, truncated: read.truncated, known: new Set(unlisted), readsSince: 0 };
    this.#rosters.set(panelId, roster);
    return { roster, listFailure: null };
  }

  #record(state: DataFolder, panelId: string, read: StateRead, problems: readonly PanelError[], routesMissing: boolean): string | null {
    // Removed while it was read: nothing is kept of it.
    if (!state.registry.get(panelId)) return null;
    const at = this.#options.now().toISOString();
    // Every distinct reason, so that garbage task stats and garbage server stats are both said.
    const message = [...new Set(problems.map((problem) => problem.message))].join(' ').slice(0, HEALTH_PROBLEM_MAX);
    const problem = problems[0] ? { at, code: problems[0].code, message, routesMissing } : null;
    const previous = state.history.get(panelId).health;
    const { counts, down, load } = read;
    let health: StoredHealth;
    // Nothing read: the older figures stay, as of when they were read (the window marks them stale),
    // but not their services down: what runs now is not known, and an old 0 must not read as "none down".
    if (counts === null && load === null && previous)
      health = { ...previous, servicesDown: null, downServices: null, services: null, problem };
    else {
      const servicesDown = counts && (counts.down ?? 0);
      health = {
        readAt: at,
        servicesDown,
        downServices: servicesDown === null || down === null ? null : down.slice(0, DOWN_NAMES_MAX),
        services: counts,
        cpuPercent: load?.cpuPercent ?? null,
        memory: load?.memory ?? { usedMb: null, totalMb: null },
        disk: load?.disk ?? { usedGb: null, totalGb: null },
        problem,
      };
    }
    state.history.record(panelId, { health });
    this.#options.changes.changed(panelId);
    return at;
  }
}

/** What one state read understood: services by state and which are down (null: not read, or not named), the load. */
interface StateRead {
  counts: ReturnType<typeof countStates>['counts'] | null;
  down: string[] | null;
  load: ServerLoad | null;
}

/** Whether the task stats name a service the kept list lacks (and did not lack when it was read). */
function hasUnknownKey(taskStats: unknown, roster: Roster): boolean {
  const { unlisted } = countStates(roster.services, taskStats);
  return unlisted.some((key) => !roster.known.has(key));
}
