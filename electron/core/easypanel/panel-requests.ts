import type { Generation } from '../../../shared/types.ts';
import type { PanelRequest } from './panel-request.ts';
import { BACKUP_REQUESTS } from './backup-requests.ts';
import { SERVICE_WRITE_REQUESTS } from './service-requests.ts';

export type { PanelRequest, RequestEffect, RequestRoute } from './panel-request.ts';

/**
 * A project list holds every service with its whole settings on real panels (several KiB each):
 * room for a few thousand services. Shallow: nothing in it is nested deep, so a deep answer is
 * hostile. Parsing this many values costs main tens of milliseconds (bench/services.ts).
 */
const PROJECT_LIST_LIMITS = { maxBytes: 16 * 1024 * 1024, shape: { maxDepth: 64, maxValues: 400_000 } } as const;

/**
 * The actions history: a few dozen small records; a panel that puts each build's log in them too
 * still fits. Shallow, as above.
 */
const ACTION_LIST_LIMITS = { maxBytes: 16 * 1024 * 1024, shape: { maxDepth: 64, maxValues: 200_000 } } as const;
/**
 * One action with its build log: one long string, which main cuts to its last part
 * (`DEPLOYMENT_LOG_MAX_CHARS`). A log larger than this is refused unread (RESPONSE_TOO_LARGE)
 * rather than parsed on main's event loop.
 */
export const ACTION_ANSWER_MAX_BYTES = 32 * 1024 * 1024;
const ACTION_LIMITS = { maxBytes: ACTION_ANSWER_MAX_BYTES, shape: { maxDepth: 64, maxValues: 20_000 } } as const;

/**
 * The requests Paneldeck sends with a panel's token, beyond the log in and the session read:
 * one name of ours each, with its route per generation (docs/easypanel-api.md, "What Paneldeck sends
 * with a token, by feature"), so that a new Easypanel generation is one new column here. `callPanel`
 * (panel-calls.ts) sends one in the panel's own generation.
 */
export const REQUESTS = {
  getVersion: {
    kind: 'query',
    effect: 'read',
    // Read beside a session check, whose outcome it never changes: one request is enough.
    retry: false,
    doing: 'reading the version',
    routes: { public: '/getUpdateStatus', rpc: '/rpc/update/getStatus', trpc: '/trpc/update.getStatus' },
    deadlineMs: null,
  },
  logOut: {
    kind: 'mutation',
    effect: 'write',
    doing: 'logging out at the panel',
    routes: { public: '/logout', rpc: '/rpc/auth/logout', trpc: '/trpc/auth.logout' },
    deadlineMs: null,
  },
  listProjectsAndServices: {
    kind: 'query',
    effect: 'read',
    retry: true,
    doing: 'listing the projects and services',
    routes: {
      public: '/listProjectsAndServices',
      rpc: '/rpc/projects/listProjectsAndServices',
      trpc: '/trpc/projects.listProjectsAndServices',
    },
    deadlineMs: null,
    answerLimits: PROJECT_LIST_LIMITS,
  },
  getDockerTaskStats: {
    kind: 'query',
    effect: 'read',
    retry: true,
    doing: 'reading which services run',
    // A real 2.32.2 has only `monitorOld.` (docs/easypanel-api.md): asked first on 2.31–2.32, with
    // `monitor.` kept as the fallback of a build that lacks it.
    routes: {
      public: '/getDockerTaskStats',
      rpc: ['/rpc/monitorOld/getDockerTaskStats', '/rpc/monitor/getDockerTaskStats'],
      trpc: ['/trpc/monitor.getDockerTaskStats', '/trpc/monitorOld.getDockerTaskStats'],
    },
    deadlineMs: null,
    answerLimits: PROJECT_LIST_LIMITS,
  },
  getSystemStats: {
    kind: 'query',
    effect: 'read',
    retry: true,
    doing: "reading the server's load",
    // The legacy monitor: `monitor.` up to 2.30, `monitorOld.` 2.30–2.32, renamed on 2.33. Asked
    // first everywhere: the metrics routes need Easypanel's paid metrics stack (server-load.ts).
    routes: {
      public: '/getLegacyMonitorSystemStats',
      rpc: '/rpc/monitorOld/getSystemStats',
      trpc: ['/trpc/monitor.getSystemStats', '/trpc/monitorOld.getSystemStats'],
    },
    deadlineMs: null,
  },
  getMetricsSettings: {
    kind: 'query',
    effect: 'read',
    retry: true,
    doing: 'reading whether the metrics are on',
    // No metrics before 2.31: a tRPC panel has no route for them.
    routes: { public: '/getMetricsSettings', rpc: '/rpc/metrics/getSettings', trpc: [] },
    deadlineMs: null,
  },
  getMetricsSystemStats: {
    kind: 'query',
    effect: 'read',
    retry: true,
    doing: "reading the server's load from its metrics",
    // `range` is a number: 2.33's GET refuses it, so 2.33 is asked through its RPC route.
    routes: { public: '/rpc/metrics/getSystemStats', rpc: '/rpc/metrics/getSystemStats', trpc: [] },
    via: { public: 'rpc' },
    input: ['range', 'step'],
    deadlineMs: null,
  },
  listActions: {
    kind: 'query',
    effect: 'read',
    retry: true,
    doing: 'listing the deployments',
    // `limit` is a number: 2.33's GET refuses it, so 2.33 is asked through its RPC route.
    routes: { public: '/rpc/actions/listActions', rpc: '/rpc/actions/listActions', trpc: '/trpc/actions.listActions' },
    via: { public: 'rpc' },
    input: ['projectName', 'serviceName', 'type', 'limit'],
    deadlineMs: null,
    answerLimits: ACTION_LIST_LIMITS,
  },
  inspectAppService: {
    kind: 'query',
    effect: 'read',
    retry: true,
    doing: "reading the app's domains",
    // An app's settings, its domains among them; 2.33's `listDomains` is not known to answer (docs/easypanel-api.md).
    routes: { public: '/inspectAppService', rpc: '/rpc/services/app/inspectService', trpc: '/trpc/services.app.inspectService' },
    input: ['projectName', 'serviceName'],
    deadlineMs: null,
  },
  getAction: {
    kind: 'query',
    effect: 'read',
    retry: true,
    doing: 'reading the build log',
    routes: { public: '/getAction', rpc: '/rpc/actions/getAction', trpc: '/trpc/actions.getAction' },
    input: ['id'],
    deadlineMs: null,
    answerLimits: ACTION_LIMITS,
  },
  killAction: {
    kind: 'mutation',
    effect: 'write',
    doing: 'cancelling the deployment',
    routes: { public: '/killAction', rpc: '/rpc/actions/killAction', trpc: '/trpc/actions.killAction' },
    input: ['id'],
    deadlineMs: 30_000,
  },
  // Easypanel's own upgrade: the panel pulls its new image and restarts (EASYPANEL.md, version, updates).
  updatePanel: {
    kind: 'mutation',
    effect: 'write',
    doing: 'starting the update of Easypanel',
    routes: { public: '/update', rpc: '/rpc/update/update', trpc: '/trpc/update.update' },
    deadlineMs: 120_000,
  },
  // Deploy, start, stop, restart; a database's enable and disable (service-requests.ts).
  ...SERVICE_WRITE_REQUESTS,
  // Each service's backup schedules, and a run of one now (backup-requests.ts).
  ...BACKUP_REQUESTS,
} as const satisfies Record<string, PanelRequest>;

export type RequestName = keyof typeof REQUESTS;

/** The request's routes in `generation`, in the order they are tried. */
export function routesOf(request: PanelRequest, generation: Generation): readonly string[] {
  const routes = request.routes[generation];
  return typeof routes === 'string' ? [routes] : routes;
}
