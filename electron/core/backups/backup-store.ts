import {
  BACKUP_ID_MAX,
  type BackupRunStatus,
  type BackupSchedule,
  type BackupService,
  type PanelBackups,
} from '../../../shared/backups.ts';
import { DEPLOYMENT_STATUSES } from '../../../shared/deployments.ts';
import { isRecord } from '../../../shared/guards.ts';
import type { Kept } from '../schedule/kept-pass.ts';
import type { DocumentStore } from '../storage/document-store.ts';

/**
 * The last backups read, kept on disk (`backups.json`) so that a start shows them at once and the
 * daily bound holds across restarts. Written whole after each pass; read back with every field
 * checked, an entry that is not what this version writes dropped alone.
 */

const VERSION = 1;
const TEXT_MAX = 300;

const isText = (value: unknown, max = TEXT_MAX): value is string => typeof value === 'string' && value.length <= max;
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

export class BackupStore {
  readonly #open: () => DocumentStore;
  #store: DocumentStore | null = null;

  constructor(open: () => DocumentStore) {
    this.#open = open;
  }

  /** The pass kept by an earlier run; null when none (or the file is not this version's). */
  async load(): Promise<Kept<PanelBackups[]> | null> {
    this.#store ??= this.#open();
    const document = this.#store.read();
    if (!isRecord(document) || document.version !== VERSION || typeof document.at !== 'number' || !Array.isArray(document.panels))
      return null;
    return { at: document.at, value: document.panels.flatMap((panel) => readPanel(panel) ?? []) };
  }

  async save({ at, value }: Kept<PanelBackups[]>): Promise<void> {
    this.#store ??= this.#open();
    await this.#store.save(null, () => ({ version: VERSION, at, panels: value }));
  }
}
