import type { DeploymentStatus } from './deployments.ts';

/**
 * Backups at a glance (`listBackups`, `runBackups`): each signed-in panel's backup schedules
 * (database backups per database service, volume backups per service) with each one's last run as
 * the panel's actions history says it, the database services no enabled schedule protects, and a
 * run of chosen schedules now ("run all backups before maintenance"). Easypanel has no endpoint
 * that lists backup files: a schedule and its last run are all there is to read.
 */

export type BackupKind = 'database' | 'volume';

/** How a run ended, as the panel's action says it (an action's status); `unknown` for a word Paneldeck does not know. */
export type BackupRunStatus = DeploymentStatus;

/** One backup schedule of a service. */
export interface BackupSchedule {
  kind: BackupKind;
  /** The panel's id of the schedule: what `runDatabaseBackup` / `runVolumeBackup` take. */
  id: string;
  projectName: string;
  serviceName: string;
  /** Its cron expression as the panel wrote it; empty when it gave none. */
  schedule: string;
  enabled: boolean;
  /**
   * The service's newest action of the kind's type (`backup` / `volumeBackup`); null when none is in
   * the history read. An action names its service, not its schedule: a service's schedules of one
   * kind share it.
   */
  lastRun: { at: string; status: BackupRunStatus } | null;
}

/** A service, by its names. */
export interface BackupService {
  projectName: string;
  serviceName: string;
}

/** One panel's backups as last read. */
export interface PanelBackups {
  panelId: string;
  /** When the backups shown were read (ISO 8601); null when they never were. */
  readAt: string | null;
  backups: BackupSchedule[];
  /** Database services with no enabled schedule. */
  unprotected: BackupService[];
  /** Why the last read failed, in words (the backups shown are then the last good read's); null when it did not. */
  problem: string | null;
}

/** One schedule to run now. */
export interface BackupRunItem extends BackupService {
  panelId: string;
  kind: BackupKind;
  id: string;
}

/** A run's item with what came of it; `cancelled` was never sent, `unknown` was sent and no answer came. */
export interface BackupRunResult extends BackupRunItem {
  outcome: 'done' | 'failed' | 'unknown' | 'cancelled';
  message: string | null;
}

/** The database service types Easypanel backs up (docs/easypanel-api.md). */
export const DATABASE_TYPES: ReadonlySet<string> = new Set(['postgres', 'mysql', 'mariadb', 'mongo', 'redis']);

/** How long a read is kept (on disk too) before `listBackups` reads the fleet again by itself. */
export const BACKUPS_KEPT_MS = 24 * 60 * 60 * 1000;

/** Runs in flight across the fleet, and on one panel: a backup loads its server. */
export const BACKUP_RUNS_AT_ONCE = 8;
export const BACKUP_RUNS_PER_PANEL = 2;

/** Schedules asked in one run at most. */
export const MAX_BACKUP_RUN_ITEMS = 5000;

/** The longest schedule id taken: Easypanel's are short ids. */
export const BACKUP_ID_MAX = 100;
export const BACKUP_ID_PATTERN = /^[A-Za-z0-9_-]+$/;

/** A schedule's key within its panel: a slash is in no name or id. */
export const backupKey = (item: Pick<BackupRunItem, 'panelId' | 'kind' | 'id'>) => `${item.panelId}/${item.kind}/${item.id}`;
