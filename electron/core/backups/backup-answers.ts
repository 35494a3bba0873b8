import {
  BACKUP_ID_MAX,
  BACKUP_ID_PATTERN,
  type BackupKind,
  type BackupRunStatus,
  type BackupSchedule,
  type BackupService,
  DATABASE_TYPES,
} from '../../../shared/backups.ts';
import { PanelError } from '../../../shared/contract/errors.ts';
import { isRecord } from '../../../shared/guards.ts';
import { readPanelActions } from '../easypanel/deployment-answers.ts';
import { cleanName } from '../easypanel/service-answers.ts';
import type { SecretMatcher } from '../secrets/secret-match.ts';

/**
 * Reads a panel's backup answers, taking nothing on trust: an answer that is not the shape
 * Easypanel sends throws `BackupAnswerError`, so that the panel shows a problem, never "no
 * backups". Pure: no I/O.
 */

export class BackupAnswerError extends PanelError {
  constructor(what: string) {
    super('BAD_RESPONSE', `The panel's answer could not be read: ${what}.`);
  }
}

/** Schedules of one service kept at most: a service has a few, never thousands. */
const SCHEDULES_PER_SERVICE = 100;
const SCHEDULE_MAX = 100;
/** The action type of each kind's runs (docs/easypanel-api.md). */
export const RUN_TYPES: Readonly<Record<BackupKind, string>> = { database: 'backup', volume: 'volumeBackup' };
/** The newest runs of each type read per panel: enough for each schedule's last one. */
export const RUNS_READ = 100;

export interface ListedService extends BackupService {
  type: string;
}

/** The services of a `listProjectsAndServices` answer; not that shape: a BackupAnswerError. */
export function servicesOf(listed: unknown): ListedService[] {
  if (!isRecord(listed) || !Array.isArray(listed.services)) throw new BackupAnswerError('its service list is not one Paneldeck can read');
  const seen = new Set<string>();
  return listed.services.flatMap((service) => {
    if (!isRecord(service) || typeof service.projectName !== 'string' || typeof service.name !== 'string') return [];
    const key = `${service.projectName}/${service.name}`;
    if (seen.has(key)) return [];
    seen.add(key);
    return [
      { projectName: service.projectName, serviceName: service.name, type: typeof service.type === 'string' ? service.type : 'unknown' },
    ];
  });
}

export const isDatabase = (service: ListedService) => DATABASE_TYPES.has(service.type);

/**
 * The schedules of one service's `listDatabaseBackups` / `listVolumeBackups` answer: an array of
 * `{id, schedule, enabled, ...}`. Anything else, or an item without a usable id or `enabled`, is a
 * BackupAnswerError.
 */
export function schedulesOf(answer: unknown, kind: BackupKind, service: BackupService): BackupSchedule[] {
  if (!Array.isArray(answer))
    throw new BackupAnswerError(`its ${kind} backups of ${service.projectName}/${service.serviceName} are not a list`);
  return answer.slice(0, SCHEDULES_PER_SERVICE).map((item): BackupSchedule => {
    const id =
      isRecord(item) && typeof item.id === 'number' && Number.isSafeInteger(item.id) ? String(item.id) : isRecord(item) ? item.id : null;
    if (
      !isRecord(item) ||
      typeof id !== 'string' ||
      id.length > BACKUP_ID_MAX ||
      !BACKUP_ID_PATTERN.test(id) ||
      typeof item.enabled !== 'boolean'
    )
      throw new BackupAnswerError(`a ${kind} backup of ${service.projectName}/${service.serviceName} is not one Paneldeck can read`);
    return {
      kind,
      id,
      projectName: service.projectName,
      serviceName: service.serviceName,
      schedule: cleanName(item.schedule, SCHEDULE_MAX) ?? '',
      enabled: item.enabled,
      lastRun: null,
    };
  });
}

/** Whether a `listActions` answer is a list at all (an array, or a paged `{items}` / `{actions}`). */
function isActionList(answer: unknown): boolean {
  return Array.isArray(answer) || (isRecord(answer) && (Array.isArray(answer.items) || Array.isArray(answer.actions)));
}

/** Each service's newest run of the type (`<project>/<service>` keys), from a `listActions` answer listed newest first. */
export function lastRunsOf(
  answer: unknown,
  kind: BackupKind,
  holdsToken: SecretMatcher,
): Map<string, { at: string; status: BackupRunStatus }> {
  if (!isActionList(answer)) throw new BackupAnswerError('its actions history is not a list');
  const runs = new Map<string, { at: string; status: BackupRunStatus }>();
  for (const action of readPanelActions(answer, holdsToken, RUNS_READ)) {
    // A panel that ignored the type asked for still has its other actions left out here.
    if (action.type !== RUN_TYPES[kind] || action.startedAt === null || action.projectName === null || action.serviceName === null)
      continue;
    const key = `${action.projectName}/${action.serviceName}`;
    const kept = runs.get(key);
    if (!kept || kept.at < action.startedAt) runs.set(key, { at: action.startedAt, status: action.status });
  }
  return runs;
}

/** The database services with no enabled schedule among `schedules`. */
export function unprotectedOf(services: readonly ListedService[], schedules: readonly BackupSchedule[]): BackupService[] {
  const protectedKeys = new Set(
    schedules.filter((one) => one.kind === 'database' && one.enabled).map((one) => `${one.projectName}/${one.serviceName}`),
  );
  return services
    .filter((service) => isDatabase(service) && !protectedKeys.has(`${service.projectName}/${service.serviceName}`))
    .map(({ projectName, serviceName }) => ({ projectName, serviceName }));
}
