import {
  BACKUP_ID_MAX,
  type BackupRunStatus,
  type BackupSchedule,
  type BackupService,
  type PanelBackups,
} from '../../../shared/backups.ts';
import { DEPLOYMENT_STATUSES } from '../../../shared/deployments.ts';
import { isRecord, isTextUpTo } from '../common/guards.ts';
import type { DocumentStore } from '../storage/document-store.ts';
import { KeptFile } from '../storage/kept-file.ts';

/** The last backups read as `backups.json` keeps it (`storage/kept-file.ts`), each field checked when read back. */
const TEXT_MAX = 300;

const isText = (value: unknown, max = TEXT_MAX): value is string => isTextUpTo(value, max);
const isTime = (value: unknown): value is string => isText(value, 64) && Number.isFinite(Date.parse(value));

function readService(value: unknown): BackupService | null {
  return isRecord(value) && isText(value.projectName) && isText(value.serviceName)
    ? { projectName: value.projectName, serviceName: value.serviceName }
    : null;
}

function readSchedule(value: unknown): BackupSchedule | null {
  const service = readService(value);
  if (!service || !isRecord(value) || (value.kind !== 'database' && value.kind !== 'volume')) return null;
  if (!isText(value.id, BACKUP_ID_MAX) || !isText(value.schedule) || typeof value.enabled !== 'boolean') return null;
  const run = value.lastRun;
  const lastRun =
    isRecord(run) && isTime(run.at) && (DEPLOYMENT_STATUSES as readonly unknown[]).includes(run.status)
      ? { at: run.at, status: run.status as BackupRunStatus }
      : null;
  if (run !== null && lastRun === null) return null;
  return { kind: value.kind, id: value.id, ...service, schedule: value.schedule, enabled: value.enabled, lastRun };
}

function readPanel(value: unknown): PanelBackups | null {
  if (!isRecord(value) || !isText(value.panelId, 100) || !Array.isArray(value.backups) || !Array.isArray(value.unprotected)) return null;
  if (value.readAt !== null && !isTime(value.readAt)) return null;
  if (value.problem !== null && !isText(value.problem)) return null;
  const backups = value.backups.map(readSchedule);
  const unprotected = value.unprotected.map(readService);
  if (backups.includes(null) || unprotected.includes(null)) return null;
  return {
    panelId: value.panelId,
    readAt: value.readAt,
    backups: backups as BackupSchedule[],
    unprotected: unprotected as BackupService[],
    problem: value.problem,
  };
}

/** `backups.json`: each panel's backups of the last pass. */
export const backupFile = (open: () => DocumentStore): KeptFile<PanelBackups> =>
  new KeptFile({ open, field: 'panels', readEntry: readPanel });
