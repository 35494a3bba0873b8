import { randomBytes } from 'node:crypto';
import { type CallContext, data, fail, type Operation, type Outcome } from './outcomes.ts';
import { bearerOf } from './operations.ts';
import type { ServiceActionsState } from './service-actions-state.ts';
import type { ServicesState } from './services-state.ts';
import type { Route } from './types.ts';

/**
 * Backup schedules and their runs. The names: 2.33's flat ones from a real 2.33.1 catalogue
 * (`listDatabaseBackups {projectName, serviceName}`, `runDatabaseBackup`, `listVolumeBackups`,
 * `runVolumeBackup {id}`), and the RPC layer's from a real 2.32.2 catalogue
 * (`databaseBackups/listDatabaseBackups`, `volumeBackups/runVolumeBackup`). No source shows the tRPC
 * generation's: a guess, the RPC layer's names dotted (`databaseBackups.listDatabaseBackups`), as
 * every other tRPC name here is. No source shows a schedule's fields either: `{id, projectName,
 * serviceName, schedule, enabled, ...}` is the create input of the 2.32.2 catalogue plus its id.
 * A run adds an action of type `backup` / `volumeBackup` to the actions history.
 */

export type BackupRoute = 'listDatabaseBackups' | 'runDatabaseBackup' | 'listVolumeBackups' | 'runVolumeBackup';
const ROUTES: readonly BackupRoute[] = ['listDatabaseBackups', 'runDatabaseBackup', 'listVolumeBackups', 'runVolumeBackup'];

const operation = (route: BackupRoute, namespace: string): Operation => ({
  route,
  kind: route.startsWith('run') ? 'mutation' : 'query',
  trpc: `${namespace}.${route}`,
  rpc: `${namespace}/${route}`,
  public: route,
});

export const BACKUP_OPERATIONS: readonly Operation[] = [
  operation('listDatabaseBackups', 'databaseBackups'),
  operation('runDatabaseBackup', 'databaseBackups'),
  operation('listVolumeBackups', 'volumeBackups'),
  operation('runVolumeBackup', 'volumeBackups'),
];

export function isBackupRoute(route: Route): route is BackupRoute {
  return (ROUTES as readonly string[]).includes(route);
}

export type BackupKind = 'database' | 'volume';

export interface BackupScheduleRecord {
  id: string;
  kind: BackupKind;
  projectName: string;
  serviceName: string;
  schedule: string;
  enabled: boolean;
  /** Database backups: the database dumped; volume backups: the volume. */
  target: string;
}

export type BackupsState = ReturnType<typeof createBackupsState>;

export function createBackupsState(services: ServicesState, actions: ServiceActionsState) {
  const schedules: BackupScheduleRecord[] = [];
  const failing = new Map<string, string>();
  const rawAnswers = new Map<BackupRoute, unknown>();
  /** Every run asked, in order, each with its schedule id: what a test counts. */
  const runs: { kind: BackupKind; id: string }[] = [];
  return {
    runs,
    /** Adds a schedule of the service (which must exist); answers it. */
    addSchedule: (
      kind: BackupKind,
      projectName: string,
      serviceName: string,
      fields: { id?: string; schedule?: string; enabled?: boolean } = {},
    ): BackupScheduleRecord => {
      if (!services.service(projectName, serviceName)) throw new Error(`no service ${projectName}/${serviceName}`);
      const record = {
        id: fields.id ?? randomBytes(6).toString('hex'),
        kind,
        projectName,
        serviceName,
        schedule: fields.schedule ?? '0 3 * * *',
        enabled: fields.enabled ?? true,
        target: kind === 'database' ? serviceName : 'data',
      };
      schedules.push(record);
      return record;
    },
    schedules: () => [...schedules],
    /** The next runs of the schedule fail with `message` (its action ends as `error`); null: they succeed again. */
    failRuns: (id: string, message: string | null) => {
      if (message === null) failing.delete(id);
      else failing.set(id, message);
    },
    failure: (id: string) => failing.get(id) ?? null,
    /** Answers the route with this body (inside its envelope) instead; undefined restores it. */
    setRawAnswer: (route: BackupRoute, body: unknown) => {
      if (body === undefined) rawAnswers.delete(route);
      else rawAnswers.set(route, body);
    },
    rawAnswer: (route: BackupRoute): { body: unknown } | null => (rawAnswers.has(route) ? { body: rawAnswers.get(route) } : null),
    /** A run finished by the panel on its own schedule, as the history shows it. */
    recordRun: (record: BackupScheduleRecord, status: 'done' | 'error') => {
      const action = actions.beginAction(record.projectName, record.serviceName, record.kind === 'database' ? 'backup' : 'volumeBackup', {
        userEmail: null,
        isApiAction: false,
        isSystemAction: true,
      });
      actions.finishAction(action, status);
    },
  };
}

export function performBackupOperation(route: BackupRoute, input: unknown, context: CallContext): Outcome {
  const { backups, serviceActions, services } = context.state;
  const raw = backups.rawAnswer(route);
  if (raw) return data(raw.body);
  const fields = (input ?? {}) as { projectName?: unknown; serviceName?: unknown; id?: unknown };
  const kind: BackupKind = route.includes('Database') ? 'database' : 'volume';
  if (route.startsWith('list')) {
    const { projectName, serviceName } = fields;
    if (typeof projectName !== 'string' || typeof serviceName !== 'string') return fail('BAD_REQUEST', 'Input validation failed');
    if (!services.service(projectName, serviceName)) return fail('NOT_FOUND', 'Service not found');
    const listed = backups
      .schedules()
      .filter((one) => one.kind === kind && one.projectName === projectName && one.serviceName === serviceName)
      .map(({ id, schedule, enabled, target }) => ({
        id,
        projectName,
        serviceName,
        schedule,
        enabled,
        ...(kind === 'database' ? { databaseName: target } : { volumeName: target }),
        storageProviderId: 'demo-s3',
        retention: 7,
      }));
    return data(listed);
  }
  if (typeof fields.id !== 'string') return fail('BAD_REQUEST', 'Input validation failed');
  const record = backups.schedules().find((one) => one.kind === kind && one.id === fields.id);
  if (!record) return fail('NOT_FOUND', 'Backup not found');
  backups.runs.push({ kind, id: record.id });
  const caller = context.state.caller(bearerOf(context.request));
  const action = serviceActions.beginAction(record.projectName, record.serviceName, kind === 'database' ? 'backup' : 'volumeBackup', {
    userEmail: caller?.kind === 'session' ? caller.issued.user.email : caller?.kind === 'api-token' ? caller.apiToken.user.email : null,
    isApiAction: caller?.kind === 'api-token',
    isSystemAction: false,
  });
  const failure = backups.failure(record.id);
  serviceActions.finishAction(action, failure ? 'error' : 'done');
  // The run is done (or failed) either way; the client never hears of it.
  if (serviceActions.takeLostAnswer(route)) context.request.socket.destroy();
  return failure ? fail('INTERNAL_SERVER_ERROR', failure) : data(null);
}
