import { type CallContext, data, fail, type Operation, type Outcome } from './outcomes.ts';
import { bearerOf } from './operations.ts';
import { type ActionBy, BUILD_LOG_LINES, type ActionRecord } from './service-actions-state.ts';
import { NAME_PATTERN, type ServiceRecord, type ServiceType } from './services-state.ts';
import type { Route } from './types.ts';

/**
 * The writes to a service (deploy, start, stop, restart; a database's enable and disable) and the
 * actions history, each generation's names for them as docs/easypanel-api.md gives them ("What Paneldeck sends with a token,
 * by feature"): `services.app.deployService` (tRPC), `services/app/deployService` (RPC),
 * `POST deployAppService` (2.33). A route is named by its 2.33 name. A write changes the task
 * stats through services-state.ts's methods, and leaves an action record (service-actions-state.ts).
 */

type AppVerb = 'deploy' | 'start' | 'stop' | 'restart';
type DatabaseVerb = 'enable' | 'disable';
type Verb = AppVerb | DatabaseVerb;

/** How 2.33 writes each type in a flat name (`disableMySQLService`), as a real 2.33.1 catalogue spells them. */
const TYPE_LABELS = {
  app: 'App',
  compose: 'Compose',
  postgres: 'Postgres',
  mysql: 'MySQL',
  mariadb: 'MariaDB',
  mongo: 'MongoDB',
  redis: 'Redis',
} as const;
type WritableType = keyof typeof TYPE_LABELS;
type Label = (typeof TYPE_LABELS)[WritableType];

export type ServiceWriteRoute = `${AppVerb}${'App' | 'Compose'}Service` | `${DatabaseVerb}${Exclude<Label, 'App' | 'Compose'>}Service`;
export type ActionReadRoute = 'listActions' | 'getAction' | 'killAction';

const VERBS: Record<WritableType, readonly Verb[]> = {
  app: ['deploy', 'start', 'stop', 'restart'],
  // docs/easypanel-api.md: compose's tRPC names are not confirmed before 2.33; served as app's are.
  compose: ['deploy', 'start', 'stop', 'restart'],
  postgres: ['enable', 'disable'],
  mysql: ['enable', 'disable'],
  mariadb: ['enable', 'disable'],
  mongo: ['enable', 'disable'],
  redis: ['enable', 'disable'],
};

interface WriteTarget {
  type: WritableType;
  verb: Verb;
}

const TARGETS = new Map<string, WriteTarget>();
const WRITE_OPERATIONS: Operation[] = [];
for (const [type, verbs] of Object.entries(VERBS) as [WritableType, readonly Verb[]][]) {
  for (const verb of verbs) {
    const route = `${verb}${TYPE_LABELS[type]}Service` as ServiceWriteRoute;
    TARGETS.set(route, { type, verb });
    WRITE_OPERATIONS.push({
      route,
      kind: 'mutation',
      trpc: `services.${type}.${verb}Service`,
      rpc: `services/${type}/${verb}Service`,
      public: route,
    });
  }
}

export const SERVICE_WRITE_OPERATIONS: readonly Operation[] = [
  ...WRITE_OPERATIONS,
  { route: 'listActions', kind: 'query', trpc: 'actions.listActions', rpc: 'actions/listActions', public: 'listActions' },
  { route: 'getAction', kind: 'query', trpc: 'actions.getAction', rpc: 'actions/getAction', public: 'getAction' },
  { route: 'killAction', kind: 'mutation', trpc: 'actions.killAction', rpc: 'actions/killAction', public: 'killAction' },
];

export function isServiceWrite(route: Route): route is ServiceWriteRoute | ActionReadRoute {
  return TARGETS.has(route) || route === 'listActions' || route === 'getAction' || route === 'killAction';
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Carries out the write, or reads the actions. A deploy answers when it has ended, as a real one does. */
export async function performServiceWrite(
  route: ServiceWriteRoute | ActionReadRoute,
  input: unknown,
  context: CallContext,
): Promise<Outcome> {
  if (route === 'killAction') return killAction(input, context);
  if (route === 'listActions' || route === 'getAction') {
    const raw = context.state.serviceActions.rawAnswer(route);
    if (raw) return data(raw.body);
    return route === 'listActions' ? listActions(input, context) : getAction(input, context);
  }
  const target = TARGETS.get(route);
  const names = input as { projectName?: unknown; serviceName?: unknown } | null | undefined;
  const projectName = names?.projectName;
  const serviceName = names?.serviceName;
  if (
    typeof projectName !== 'string' ||
    typeof serviceName !== 'string' ||
    !NAME_PATTERN.test(projectName) ||
    !NAME_PATTERN.test(serviceName)
  )
    return fail('BAD_REQUEST', 'Input validation failed');
  const record = context.state.services.service(projectName, serviceName);
  if (!target || !record || record.type !== (target.type as ServiceType)) return fail('NOT_FOUND', 'Service not found');

  const actions = context.state.serviceActions;
  const lose = actions.takeLostAnswer(route);
  if (target.verb === 'deploy') {
    const deploying = deploy(record, context);
    if (!lose) return deploying;
    // The deploy goes on; the client never hears of it.
    context.request.socket.destroy();
    return data(null);
  }
  const action = actions.beginAction(projectName, serviceName, target.verb, actionBy(context));
  applyChange(record, target.verb, context);
  actions.finishAction(action, 'done');
  if (lose) context.request.socket.destroy();
  return data(null);
}

/** Who the request's token stands for, as the panel records it on the action. */
function actionBy({ state, request }: CallContext): ActionBy {
  const caller = state.caller(bearerOf(request));
  if (!caller) return { userEmail: null, isApiAction: false, isSystemAction: true };
  if (caller.kind === 'api-token') return { userEmail: caller.apiToken.user.email, isApiAction: true, isSystemAction: false };
  return { userEmail: caller.issued.user.email, isApiAction: false, isSystemAction: false };
}

/** Stop: no task wanted; start and enable: one at least, running; restart: the same tasks again. */
function applyChange(record: ServiceRecord, verb: Exclude<Verb, 'deploy'>, { state }: CallContext): void {
  const { services } = state;
  const wanted = Math.max(1, record.replicas?.desired ?? 1);
  switch (verb) {
    case 'stop':
      return services.setReplicas(record.projectName, record.name, { actual: 0, desired: 0 });
    case 'disable':
      services.setEnabled(record.projectName, record.name, false);
      return services.setReplicas(record.projectName, record.name, { actual: 0, desired: 0 });
    case 'enable':
      services.setEnabled(record.projectName, record.name, true);
      return services.setReplicas(record.projectName, record.name, { actual: wanted, desired: wanted });
    case 'start':
    case 'restart':
      return services.setReplicas(record.projectName, record.name, { actual: wanted, desired: wanted });
  }
}

/** A build (an app) or a deployment (compose), its log written a line per step of the deploy's time. */
async function deploy(record: ServiceRecord, context: CallContext): Promise<Outcome> {
  const actions = context.state.serviceActions;
  const by = actionBy(context);
  const action: ActionRecord = actions.beginAction(record.projectName, record.name, record.type === 'app' ? 'build' : 'deployment', by);
  const failure = actions.deployFailure(record.projectName, record.name);
  const lines = failure ? [...BUILD_LOG_LINES.slice(0, 5), `ERROR: ${failure.message}`] : BUILD_LOG_LINES;
  const step = actions.deployTime() / lines.length;
  for (const line of lines) {
    await sleep(step);
    if (action.status === 'killed') return fail('INTERNAL_SERVER_ERROR', 'The action was killed');
    action.log += `${line}\n`;
  }
  await Promise.race([actions.deployHeld(), actions.killed(action)]);
  if (action.status === 'killed') return fail('INTERNAL_SERVER_ERROR', 'The action was killed');
  if (failure) {
    actions.finishAction(action, 'error');
    return fail('INTERNAL_SERVER_ERROR', failure.message);
  }
  const wanted = Math.max(1, record.replicas?.desired ?? 1);
  context.state.services.setReplicas(record.projectName, record.name, { actual: wanted, desired: wanted });
  actions.finishAction(action, 'done');
  return data(null);
}

/** `{projectName?, serviceName?, type?, limit?}`, newest first, 8 by default; `limit` must be a number (a 2.33 GET sends a string: refused). */
function listActions(input: unknown, { state }: CallContext): Outcome {
  const query = (input ?? {}) as { projectName?: unknown; serviceName?: unknown; type?: unknown; limit?: unknown };
  if (query.limit !== undefined && (typeof query.limit !== 'number' || !Number.isInteger(query.limit) || query.limit < 1))
    return fail('BAD_REQUEST', 'Input validation failed');
  const limit = (query.limit as number | undefined) ?? 8;
  const listed = state.serviceActions
    .actions()
    .filter(
      (action) =>
        (query.projectName === undefined || action.projectName === query.projectName) &&
        (query.serviceName === undefined || action.serviceName === query.serviceName) &&
        (query.type === undefined || action.type === query.type),
    )
    .slice(0, limit)
    .map(({ log: _log, ...listedAction }) => listedAction);
  return data(listed);
}

function getAction(input: unknown, { state }: CallContext): Outcome {
  const id = (input as { id?: unknown } | null | undefined)?.id;
  if (typeof id !== 'string') return fail('BAD_REQUEST', 'Input validation failed');
  const action = state.serviceActions.action(id);
  return action ? data({ ...action }) : fail('NOT_FOUND', 'Action not found');
}

/** `{id}`: a running action without `noKill` ends as killed (its deploy stops); any other is refused. */
function killAction(input: unknown, context: CallContext): Outcome {
  const id = (input as { id?: unknown } | null | undefined)?.id;
  if (typeof id !== 'string') return fail('BAD_REQUEST', 'Input validation failed');
  const actions = context.state.serviceActions;
  const action = actions.action(id);
  if (!action) return fail('NOT_FOUND', 'Action not found');
  if (action.noKill) return fail('BAD_REQUEST', 'This action cannot be killed');
  if (action.status !== 'running') return fail('BAD_REQUEST', 'The action is not running');
  actions.kill(action);
  if (actions.takeLostAnswer('killAction')) context.request.socket.destroy();
  return data(null);
}
