import { type CallContext, data, fail, type Operation, type Outcome } from './outcomes.ts';
import type { ServiceReadRoute } from './services-state.ts';
import type { Route } from './types.ts';

/**
 * The reads of a panel's projects, services and load, each generation's names for them as
 * docs/easypanel-api.md gives them ("What Paneldeck sends with a token, by feature"). Where a read has several names, each
 * is an entry with the versions that have it: the monitor routes moved twice.
 */

export const SERVICE_READ_OPERATIONS: readonly Operation[] = [
  {
    route: 'listProjectsAndServices',
    kind: 'query',
    trpc: 'projects.listProjectsAndServices',
    rpc: 'projects/listProjectsAndServices',
    public: 'listProjectsAndServices',
  },
  // `monitor.` until 2.31: a real 2.32.2 has only `monitorOld.` (its catalogue); 2.33 has the flat name.
  {
    route: 'getDockerTaskStats',
    kind: 'query',
    trpc: 'monitor.getDockerTaskStats',
    rpc: 'monitor/getDockerTaskStats',
    public: null,
    versions: { until: '2.31' },
  },
  {
    route: 'getDockerTaskStats',
    kind: 'query',
    trpc: null,
    rpc: 'monitor/getDockerTaskStats',
    public: 'getDockerTaskStats',
    versions: { from: '2.33' },
  },
  {
    route: 'getDockerTaskStats',
    kind: 'query',
    trpc: 'monitorOld.getDockerTaskStats',
    rpc: 'monitorOld/getDockerTaskStats',
    public: null,
    versions: { from: '2.30', until: '2.32' },
  },
  // The server's load: `monitor.` up to 2.30, `monitorOld.` 2.30–2.32, `metrics.` from 2.31.
  { route: 'getSystemStats', kind: 'query', trpc: 'monitor.getSystemStats', rpc: null, public: null, versions: { until: '2.30' } },
  {
    route: 'getSystemStats',
    kind: 'query',
    trpc: 'monitorOld.getSystemStats',
    rpc: 'monitorOld/getSystemStats',
    public: null,
    versions: { from: '2.30', until: '2.32' },
  },
  {
    route: 'getSystemStats',
    kind: 'query',
    trpc: 'metrics.getSystemStats',
    rpc: 'metrics/getSystemStats',
    public: 'getMetricsSystemStats',
    versions: { from: '2.31' },
  },
  { route: 'getSystemStats', kind: 'query', trpc: null, rpc: null, public: 'getLegacyMonitorSystemStats' },
  // Whether the paid metrics stack is on (`metrics.getSettings`, 2.33's `getMetricsSettings`).
  {
    route: 'getMetricsSettings',
    kind: 'query',
    trpc: 'metrics.getSettings',
    rpc: 'metrics/getSettings',
    public: 'getMetricsSettings',
    versions: { from: '2.31' },
  },
  // An app's settings, its domains among them (docs/easypanel-api.md).
  {
    route: 'inspectAppService',
    kind: 'query',
    trpc: 'services.app.inspectService',
    rpc: 'services/app/inspectService',
    public: 'inspectAppService',
  },
];

const READS = new Set<Route>(SERVICE_READ_OPERATIONS.map((operation) => operation.route));

export function isServiceRead(route: Route): route is ServiceReadRoute {
  return READS.has(route);
}

/**
 * Answers from the panel's state. Every name of a read answers the same: no source shows how
 * `metrics.getSystemStats` (which takes `{range?, step?}`) differs from the older routes, so its
 * input is let through and its answer is the one docs/easypanel-api.md sketches for all of them.
 */
export function performServiceRead(route: ServiceReadRoute, input: unknown, { state }: CallContext): Outcome {
  if (route === 'inspectAppService') {
    const names = input as { projectName?: unknown; serviceName?: unknown } | null | undefined;
    const { projectName, serviceName } = names ?? {};
    if (typeof projectName !== 'string' || typeof serviceName !== 'string') return fail('BAD_REQUEST', 'Input validation failed');
    const record = state.services.service(projectName, serviceName);
    // App routes on another type's service answer 404 (docs/easypanel-api.md, "Traps").
    if (record?.type !== 'app') return fail('NOT_FOUND', 'Service not found');
    return data(state.services.answer(route, { projectName, serviceName }));
  }
  return data(state.services.answer(route));
}
