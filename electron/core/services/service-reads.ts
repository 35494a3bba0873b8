import { PanelError } from '../../../shared/contract/errors.ts';
import { isRecord } from '../../../shared/guards.ts';
import type { ServiceRef } from '../../../shared/service-logs.ts';
import type { ServerStats, ServiceList } from '../../../shared/services.ts';
import { type CallOptions, callPanel, versionOf } from '../easypanel/panel-calls.ts';
import type { RequestSettings } from '../easypanel/panel-endpoints.ts';
import { deployKey, runningDeploys } from '../easypanel/deployment-answers.ts';
import { type ReadList, readServiceList } from '../easypanel/service-answers.ts';
import { readLoad } from '../easypanel/server-load.ts';
import type { PanelRecord } from '../storage/panel-registry.ts';
import type { CoreMethods } from '../context/core-context.ts';
import { type TokenCalls, withToken } from '../sign-in/with-token.ts';

/**
 * What a panel runs: its projects and services with their state, and the server's load, read in
 * main with the panel's token (which never leaves main). Both reads go through the operation
 * table (core/easypanel/panel-requests.ts): retried once on a network failure or a 5xx.
 */

/**
 * Which services have a deploy under way, for their state to say `deploying`: filled in by the
 * writes (Paneldeck's own deploy in flight, `service-actions.ts`). A build or deployment the
 * panel's actions history reports unfinished is read here, beside the list.
 */
export interface DeploysUnderWay {
  has(panelId: string, projectName: string, serviceName: string): boolean;
}

const NO_DEPLOYS: DeploysUnderWay = { has: () => false };

/** Where a list read here is kept too: the fleet's Services view shows it (the checks' state of the panel). */
export interface ListedServices {
  listed(panelId: string, read: ReadList, taskStats: unknown, readAt: string, statsFailure: PanelError | null): void;
}

/** What the reads of a panel's services and load use: the calls with its token, the requests' settings, the clock. */
export interface ServiceReadParts extends TokenCalls {
  request: RequestSettings;
  now(): Date;
  fleet: ListedServices;
}

/**
 * How many of the panel's newest actions are looked at for unfinished builds: a running build is
 * among the newest, since each later action of any service comes after it.
 */
const RECENT_ACTIONS = 50;

export function serviceReadMethods(
  parts: ServiceReadParts,
  deploys: DeploysUnderWay = NO_DEPLOYS,
): CoreMethods<'listServices' | 'getServerStats'> {
  const { request, now, fleet } = parts;

  return {
    async listServices(panelId) {
      return withToken(parts, panelId, async ({ record, token, state }): Promise<ServiceList> => {
        // One actions read of the whole panel, beside the list: its unfinished builds are `deploying`.
        const [list, stats, actions] = await Promise.allSettled([
          callPanel(request, record, token, 'listProjectsAndServices'),
          callPanel(request, record, token, 'getDockerTaskStats'),
          callPanel(request, record, token, 'listActions', { limit: RECENT_ACTIONS }),
        ]);
        if (list.status === 'rejected') throw list.reason;
        // Without task stats the list is still worth showing: every state is then unknown, and says why.
        const statsFailure = stats.status === 'rejected' ? asPanelError(stats.reason) : null;
        if (statsFailure?.code === 'UNAUTHORIZED' || statsFailure?.code === 'CANCELLED') throw statsFailure;
        // Without it the list loses nothing but those marks: its failure is not the list's.
        const building = actions.status === 'fulfilled' ? runningDeploys(actions.value) : new Set<string>();
        const read = readServiceList(list.value, stats.status === 'fulfilled' ? stats.value : null, {
          deploying: (projectName, serviceName) =>
            deploys.has(panelId, projectName, serviceName) || building.has(deployKey(projectName, serviceName)),
        });
        const readAt = now().toISOString();
        // The fleet's Services view shows this read too, while the sign-in it was read with lasts.
        if (state.vault.token(panelId, state.registry.get(panelId)?.baseUrl ?? '') === token)
          fleet.listed(panelId, read, stats.status === 'fulfilled' ? stats.value : null, readAt, statsFailure);
        return { panelId, readAt, ...read, taskStatsProblem: statsFailure?.message ?? null };
      });
    },

    async getServerStats(panelId) {
      return withToken(parts, panelId, async ({ record, token, state }): Promise<ServerStats> => {
        const [load, version] = await Promise.allSettled([
          readLoad(request, record, token),
          callPanel(request, record, token, 'getVersion'),
        ]);
        const named = version.status === 'fulfilled' ? versionOf(version.value) : null;
        // Every place that shows the version shows this one from now on (the badge, the table, search).
        parts.reader.learntVersion(state, panelId, named);
        if (load.status === 'rejected') throw load.reason;
        return {
          panelId,
          readAt: now().toISOString(),
          version: named ?? state.history.get(panelId).panelVersion,
          ...load.value,
        };
      });
    },
  };
}

function asPanelError(error: unknown): PanelError {
  if (error instanceof PanelError) return error;
  throw error;
}

/**
 * The service's type (app, compose, postgres, ...), from a fresh read of the panel's services:
 * main never takes it from the window. NOT_FOUND when the panel has no such service.
 */
export async function readServiceType(
  request: RequestSettings,
  record: PanelRecord,
  token: string,
  { projectName, serviceName }: ServiceRef,
  options: CallOptions = {},
): Promise<string> {
  const types = serviceTypes(await callPanel(request, record, token, 'listProjectsAndServices', undefined, options));
  return typeIn(types, record, { projectName, serviceName });
}

/** The type of each service of a `listProjectsAndServices` answer, by "project/service" (a slash is in no name). */
export function serviceTypes(listed: unknown): Map<string, string> {
  const types = new Map<string, string>();
  for (const service of isRecord(listed) && Array.isArray(listed.services) ? listed.services : []) {
    if (!isRecord(service) || typeof service.projectName !== 'string' || typeof service.name !== 'string') continue;
    const key = `${service.projectName}/${service.name}`;
    // The first of two that share a name, as a search of the list would find.
    if (!types.has(key)) types.set(key, typeof service.type === 'string' ? service.type : 'unknown');
  }
  return types;
}

/** The service's type among `types`; NOT_FOUND when the panel has no such service. */
export function typeIn(types: ReadonlyMap<string, string>, record: PanelRecord, { projectName, serviceName }: ServiceRef): string {
  const type = types.get(`${projectName}/${serviceName}`);
  if (type === undefined) throw new PanelError('NOT_FOUND', `${record.name} has no service ${projectName}/${serviceName}.`);
  return type;
}
