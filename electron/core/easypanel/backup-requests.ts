import type { PanelRequest } from './panel-request.ts';

/**
 * The backup requests (docs/easypanel-api.md: `databaseBackups.*` and `volumeBackups.*` on tRPC and
 * the RPC layer, the flat names on 2.33): each service's schedules, and a run of one schedule now.
 * A panel whose catalogue lacks them is told "this panel's Easypanel has no …" (panel-features.ts).
 */

/** A run answers once the panel started it, or once the dump is made: minutes on a large database. */
export const BACKUP_RUN_DEADLINE_MS = 5 * 60 * 1000;

const schedules = (doing: string, namespace: string, name: string): PanelRequest => ({
  kind: 'query',
  effect: 'read',
  retry: true,
  doing,
  routes: { public: `/${name}`, rpc: `/rpc/${namespace}/${name}`, trpc: `/trpc/${namespace}.${name}` },
  input: ['projectName', 'serviceName'],
  deadlineMs: null,
});

const run = (doing: string, namespace: string, name: string): PanelRequest => ({
  kind: 'mutation',
  effect: 'write',
  doing,
  routes: { public: `/${name}`, rpc: `/rpc/${namespace}/${name}`, trpc: `/trpc/${namespace}.${name}` },
  input: ['id'],
  deadlineMs: BACKUP_RUN_DEADLINE_MS,
});

export const BACKUP_REQUESTS = {
  listDatabaseBackups: schedules("reading a database's backup schedules", 'databaseBackups', 'listDatabaseBackups'),
  listVolumeBackups: schedules("reading a service's volume backup schedules", 'volumeBackups', 'listVolumeBackups'),
  runDatabaseBackup: run('running a database backup', 'databaseBackups', 'runDatabaseBackup'),
  runVolumeBackup: run('running a volume backup', 'volumeBackups', 'runVolumeBackup'),
} as const satisfies Record<string, PanelRequest>;
