import type { PanelRequest } from './panel-request.ts';

/**
 * The writes to a service, as the request table holds them (docs/easypanel-api.md, "What Paneldeck sends with a token,
 * by feature"): apps and compose services are deployed, started, stopped and restarted; databases
 * have no start or stop, only enable and disable. One name of ours each, the 2.33 name
 * (`deployAppService`), with its route per generation: `services.app.deployService` (tRPC),
 * `services/app/deployService` (RPC), `POST /deployAppService` (2.33).
 */

/** What Paneldeck asks of a service, by the types that have it. */
const TYPE_LABELS = {
  app: 'App',
  compose: 'Compose',
  postgres: 'Postgres',
  mysql: 'MySQL',
  // As a real 2.33.1 catalogue spells them (`enableMariaDBService`, `disableMongoDBService`).
  mariadb: 'MariaDB',
  mongo: 'MongoDB',
  redis: 'Redis',
} as const;

export type WritableServiceType = keyof typeof TYPE_LABELS;
type DeployableLabel = 'App' | 'Compose';
type DatabaseLabel = Exclude<(typeof TYPE_LABELS)[WritableServiceType], DeployableLabel>;

export type ServiceVerb = 'deploy' | 'start' | 'stop' | 'restart' | 'enable' | 'disable';
export type ServiceWriteName =
  | `${'deploy' | 'start' | 'stop' | 'restart'}${DeployableLabel}Service`
  | `${'enable' | 'disable'}${DatabaseLabel}Service`;

/** A deploy blocks until the build and the rollout end: minutes on a real panel. */
export const DEPLOY_DEADLINE_MS = 10 * 60 * 1000;
/** Start, stop, restart, enable, disable: the panel answers once it has told Docker. */
export const SERVICE_ACTION_DEADLINE_MS = 60 * 1000;

const VERBS_OF: Record<WritableServiceType, readonly ServiceVerb[]> = {
  app: ['deploy', 'start', 'stop', 'restart'],
  compose: ['deploy', 'start', 'stop', 'restart'],
  postgres: ['enable', 'disable'],
  mysql: ['enable', 'disable'],
  mariadb: ['enable', 'disable'],
  mongo: ['enable', 'disable'],
  redis: ['enable', 'disable'],
};

const DOING: Record<ServiceVerb, string> = {
  deploy: 'deploying the service',
  start: 'starting the service',
  stop: 'stopping the service',
  restart: 'restarting the service',
  enable: 'enabling the service',
  disable: 'disabling the service',
};

export function isWritableServiceType(type: string): type is WritableServiceType {
  return Object.hasOwn(TYPE_LABELS, type);
}

/** The request's name for `verb` on a service of `type`; null when Easypanel has no such write for the type. */
export function serviceWriteName(type: WritableServiceType, verb: ServiceVerb): ServiceWriteName | null {
  return VERBS_OF[type].includes(verb) ? (`${verb}${TYPE_LABELS[type]}Service` as ServiceWriteName) : null;
}

function writeRequest(type: WritableServiceType, verb: ServiceVerb): PanelRequest {
  return {
    kind: 'mutation',
    effect: 'write',
    doing: DOING[verb],
    routes: {
      public: `/${verb}${TYPE_LABELS[type]}Service`,
      rpc: `/rpc/services/${type}/${verb}Service`,
      trpc: `/trpc/services.${type}.${verb}Service`,
    },
    input: verb === 'deploy' ? ['projectName', 'serviceName', 'forceRebuild'] : ['projectName', 'serviceName'],
    deadlineMs: verb === 'deploy' ? DEPLOY_DEADLINE_MS : SERVICE_ACTION_DEADLINE_MS,
  };
}

/** Every service write, by name, for the request table. */
export const SERVICE_WRITE_REQUESTS = Object.fromEntries(
  (Object.keys(VERBS_OF) as WritableServiceType[]).flatMap((type) =>
    VERBS_OF[type].map((verb) => [serviceWriteName(type, verb), writeRequest(type, verb)] as const),
  ),
) as Record<ServiceWriteName, PanelRequest>;
