import type { ServiceCounts } from '../../../shared/fleet-state.ts';
import { isRecord } from '../../../shared/guards.ts';
import { MAX_LISTED_SERVICES, type Replicas, type ServerStats, type ServiceState, type ServiceSummary } from '../../../shared/services.ts';

/**
 * Reads a panel's answers about what it runs into the contract's shapes (shared/services.ts),
 * taking nothing on trust: a field that is missing, of another type, or a number written as text
 * is read as far as it can be, and what cannot be is null, `unknown` or left out, never a throw.
 * Only the top level of each item is looked at (no recursion), and lists stop at a limit, so that
 * an answer's nesting or length costs no more than its parse did. Pure: no I/O.
 */

/** Longest project, service or type name shown; Easypanel's own are far shorter. */
const NAME_MAX = 200;
const TYPE_MAX = 40;
/** Control characters, and the Unicode marks that reorder or hide text (bidi overrides, zero-width). */
const UNSAFE_TEXT = /[\p{Cc}\u200B-\u200F\u202A-\u202E\u2066-\u2069\uFEFF]/gu;
/** The same, to test with (a global pattern keeps state between tests); most names need no replacing. */
const HAS_UNSAFE_TEXT = new RegExp(UNSAFE_TEXT.source, 'u');

/** A name as the window may show it: control and reordering characters replaced, shortened; null when empty or no text. */
export function cleanName(value: unknown, max = NAME_MAX): string | null {
  if (typeof value !== 'string') return null;
  const cut = value.length > max ? `${value.slice(0, max - 1)}…` : value;
  const clean = HAS_UNSAFE_TEXT.test(cut) ? cut.replace(UNSAFE_TEXT, '\uFFFD') : cut;
  return clean.trim() === '' ? null : clean;
}

/** A count of tasks: a whole number ≥ 0, or numeric text of one; null otherwise. */
export function readCount(value: unknown): number | null {
  const number = readNumber(value);
  return number !== null && Number.isInteger(number) ? number : null;
}

/** A figure ≥ 0: a finite number, or numeric text (Easypanel writes memory and disk as strings); null otherwise. */
export function readNumber(value: unknown): number | null {
  let number: number;
  if (typeof value === 'number') number = value;
  else if (typeof value === 'string' && /^\s*\d+(\.\d+)?([eE][+-]?\d+)?\s*$/.test(value)) number = Number(value);
  else return null;
  return Number.isFinite(number) && number >= 0 ? number : null;
}

/** The task stats of one service (`{actual, desired}`, numbers or numeric text), or null. */
export function readReplicas(value: unknown): Replicas | null {
  if (!isRecord(value)) return null;
  const actual = readCount(value.actual);
  const desired = readCount(value.desired);
  return actual === null || desired === null ? null : { actual, desired };
}

/**
 * A service's state. `deploying` (a deploy Paneldeck has in flight, or a build the panel reports
 * unfinished) comes first; then the panel's setting (`enabled: false` is disabled, whatever runs);
 * then the task stats: none is unknown, desired 0 stopped, fewer than desired down.
 */
export function deriveState(enabled: unknown, replicas: Replicas | null, deploying: boolean): ServiceState {
  if (deploying) return 'deploying';
  if (enabled === false) return 'disabled';
  if (replicas === null) return 'unknown';
  if (replicas.desired === 0) return 'stopped';
  return replicas.actual < replicas.desired ? 'down' : 'running';
}

/** The key of a service in the task stats: `<project>_<service>`, as Easypanel writes it. */
export const taskStatsKey = (projectName: string, serviceName: string) => `${projectName}_${serviceName}`;

export interface ListReadOptions {
  /** Whether a deploy of the service is under way (the hook writes fill in); default none is. */
  deploying?: (projectName: string, serviceName: string) => boolean;
  /** Most services kept; default `MAX_LISTED_SERVICES`. */
  limit?: number;
}

export interface ReadList {
  projects: { name: string }[];
  services: ServiceSummary[];
  truncated: boolean;
}

/**
 * The projects and services of a `listProjectsAndServices` answer, each service's state from the
 * `getDockerTaskStats` answer (null: not read, every state then unknown or from its setting).
 * Items without a usable project or service name are left out; a project named only by its
 * services is listed too, after the panel's own.
 */
export function readServiceList(list: unknown, taskStats: unknown, options: ListReadOptions = {}): ReadList {
  const limit = options.limit ?? MAX_LISTED_SERVICES;
  const root = isRecord(list) ? list : {};
  const stats = isRecord(taskStats) ? taskStats : null;
  const projectNames = new Set<string>();
  for (const project of Array.isArray(root.projects) ? root.projects : []) {
    if (projectNames.size >= limit) break;
    const name = isRecord(project) ? cleanName(project.name) : null;
    if (name !== null) projectNames.add(name);
  }
  const services: ServiceSummary[] = [];
  const rawServices = Array.isArray(root.services) ? root.services : [];
  let truncated = false;
  for (const item of rawServices) {
    if (!isRecord(item)) continue;
    const projectName = cleanName(item.projectName);
    const name = cleanName(item.name);
    if (projectName === null || name === null) continue;
    if (services.length >= limit) {
      truncated = true;
      break;
    }
    // Looked up with the panel's own names; Object.hasOwn keeps `__proto__` and its kin out.
    const key = typeof item.projectName === 'string' && typeof item.name === 'string' ? taskStatsKey(item.projectName, item.name) : null;
    const replicas = stats !== null && key !== null ? replicasIn(stats, key) : null;
    const deploying = options.deploying?.(projectName, name) ?? false;
    services.push({
      projectName,
      name,
      type: cleanName(item.type, TYPE_MAX) ?? 'unknown',
      state: deriveState(item.enabled, replicas, deploying),
      replicas,
    });
    if (projectNames.size < limit) projectNames.add(projectName);
  }
  return { projects: [...projectNames].map((name) => ({ name })), services, truncated };
}

/**
 * The largest figure a real server reports, past which the panel's word is not taken (null, as if
 * not said): a percentage of the whole machine, a century of uptime, a petabyte of memory or an
 * exabyte of disk. The window then never draws a bar or a duration from nonsense.
 */
const PLAUSIBLE = { percent: 100, uptimeSeconds: 100 * 365 * 24 * 3600, memoryMb: 1e9, diskGb: 1e9 } as const;

/** `readNumber`, and null above `max`. */
function readFigure(value: unknown, max: number): number | null {
  const number = readNumber(value);
  return number !== null && number <= max ? number : null;
}

/** The figures of a system stats answer (`uptime`, `cpuInfo`, `memInfo`, `diskInfo`), each null when not said or not plausible. */
export function readServerLoad(answer: unknown): Pick<ServerStats, 'uptimeSeconds' | 'cpuPercent' | 'memory' | 'disk'> {
  const root = isRecord(answer) ? answer : {};
  const part = (value: unknown) => (isRecord(value) ? value : {});
  const cpu = part(root.cpuInfo);
  const memory = part(root.memInfo);
  const disk = part(root.diskInfo);
  return {
    uptimeSeconds: readFigure(root.uptime, PLAUSIBLE.uptimeSeconds),
    cpuPercent: readFigure(cpu.usedPercentage, PLAUSIBLE.percent),
    memory: { usedMb: readFigure(memory.usedMemMb, PLAUSIBLE.memoryMb), totalMb: readFigure(memory.totalMemMb, PLAUSIBLE.memoryMb) },
    disk: { usedGb: readFigure(disk.usedGb, PLAUSIBLE.diskGb), totalGb: readFigure(disk.totalGb, PLAUSIBLE.diskGb) },
  };
}

/** The replicas the task stats give `key`; Object.hasOwn keeps `__proto__` and its kin out. */
function replicasIn(stats: Record<string, unknown>, key: string): Replicas | null {
  return Object.hasOwn(stats, key) ? readReplicas(stats[key]) : null;
}

/** A service as a check keeps it between reads of the list: what counting states needs. */
export interface RosterKey {
  projectName: string;
  name: string;
  disabled: boolean;
}

/** A listed service as a check keeps it, with its type for the fleet's Services view and its actions. */
export interface RosterEntry extends RosterKey {
  type: string;
}

/**
 * Each kept service's state and replicas from a task stats answer: the same derivation as a list
 * read's (`readServiceList`), so the fleet's view and a panel's Services tab agree.
 */
export function rosterStates<Entry extends RosterKey>(
  roster: readonly Entry[],
  taskStats: unknown,
  deploying: (projectName: string, serviceName: string) => boolean = () => false,
): { entry: Entry; state: ServiceState; replicas: Replicas | null }[] {
  const stats = isRecord(taskStats) ? taskStats : {};
  return roster.map((entry) => {
    const replicas = replicasIn(stats, taskStatsKey(entry.projectName, entry.name));
    return { entry, state: deriveState(!entry.disabled, replicas, deploying(entry.projectName, entry.name)), replicas };
  });
}

/**
 * How many services are in each state, from the task stats answer and the services last listed
 * (null: none listed yet, each service the task stats name is counted by its tasks alone). Also
 * which task stats keys no listed service has: a service added since the list was read, and which
 * listed services are down ("project/service"; null without a list, when they cannot be named).
 */
export function countStates(
  roster: readonly RosterKey[] | null,
  taskStats: unknown,
  deploying: (projectName: string, serviceName: string) => boolean = () => false,
): { counts: ServiceCounts; unlisted: string[]; down: string[] | null } {
  const stats = isRecord(taskStats) ? taskStats : {};
  const counts: ServiceCounts = {};
  const add = (state: ServiceState) => (counts[state] = (counts[state] ?? 0) + 1);
  if (roster === null) {
    for (const value of Object.values(stats)) add(deriveState(true, readReplicas(value), false));
    return { counts, unlisted: [], down: null };
  }
  const listed = new Set<string>();
  const down: string[] = [];
  for (const { entry, state } of rosterStates(roster, stats, deploying)) {
    listed.add(taskStatsKey(entry.projectName, entry.name));
    add(state);
    if (state === 'down') down.push(`${entry.projectName}/${entry.name}`);
  }
  return { counts, unlisted: Object.keys(stats).filter((key) => !listed.has(key)), down };
}
