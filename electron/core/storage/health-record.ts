import { isErrorCode } from '../../../shared/contract/errors.ts';
import { DOWN_NAMES_MAX, HEALTH_PROBLEM_MAX, type PanelHealth, type ServiceCounts } from '../../../shared/fleet-state.ts';
import { SERVICE_STATES } from '../../../shared/services.ts';
import { isRecord, isTime } from '../common/guards.ts';

/** A panel's state as the check history keeps it: the version lives in the history already, the id is the key. */
export type StoredHealth = Omit<PanelHealth, 'panelId' | 'version'>;

const STATES: ReadonlySet<string> = new Set(SERVICE_STATES);

/** A figure as written: null, or a finite number ≥ 0. */
function isFigure(value: unknown): value is number | null {
  return value === null || (typeof value === 'number' && Number.isFinite(value) && value >= 0);
}

function readCounts(value: unknown): ServiceCounts | null | undefined {
  if (value === null) return null;
  if (!isRecord(value)) return undefined;
  const counts: ServiceCounts = {};
  for (const [state, count] of Object.entries(value)) {
    if (!STATES.has(state) || typeof count !== 'number' || !Number.isInteger(count) || count <= 0) return undefined;
    counts[state as keyof ServiceCounts] = count;
  }
  return counts;
}

function readPair<A extends string, B extends string>(value: unknown, a: A, b: B): Record<A | B, number | null> | undefined {
  if (!isRecord(value) || !isFigure(value[a]) || !isFigure(value[b])) return undefined;
  return { [a]: value[a], [b]: value[b] } as Record<A | B, number | null>;
}

/** The services named down; null when missing (files before they were kept) or not a list of names. */
function readDownNames(value: unknown): string[] | null {
  if (!Array.isArray(value)) return null;
  const names = value.filter((name): name is string => typeof name === 'string').slice(0, DOWN_NAMES_MAX);
  return names.length === value.length || names.length === DOWN_NAMES_MAX ? names : null;
}

/**
 * One panel's stored state, or null when it is not what this version writes (the entry's other
 * fields stay: a damaged state costs the panel list's figures of one panel until its next check).
 */
export function readStoredHealth(candidate: unknown): StoredHealth | null {
  if (!isRecord(candidate) || !isTime(candidate.readAt)) return null;
  const { servicesDown, cpuPercent, problem } = candidate;
  const services = readCounts(candidate.services);
  const memory = readPair(candidate.memory, 'usedMb', 'totalMb');
  const disk = readPair(candidate.disk, 'usedGb', 'totalGb');
  if (services === undefined || !memory || !disk || !isFigure(cpuPercent)) return null;
  if (servicesDown !== null && (typeof servicesDown !== 'number' || !Number.isInteger(servicesDown) || servicesDown < 0)) return null;
  // Names only beside a count of services down: an older file has none, and then they are not known.
  const downServices = servicesDown === null ? null : readDownNames(candidate.downServices);
  const read = { readAt: candidate.readAt, servicesDown, downServices, services, cpuPercent, memory, disk };
  if (problem === null) return { ...read, problem: null };
  if (!isRecord(problem) || !isTime(problem.at) || !isErrorCode(problem.code) || typeof problem.message !== 'string') return null;
  const message = problem.message.slice(0, HEALTH_PROBLEM_MAX);
  return { ...read, problem: { at: problem.at, code: problem.code, message, routesMissing: problem.routesMissing === true } };
}
