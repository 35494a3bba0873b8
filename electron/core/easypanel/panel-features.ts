import { PanelError } from '../../../shared/contract/errors.ts';
import { type DriftLine, type FeatureId, type FeatureState, missingFeatureText } from '../../../shared/panel-features.ts';
import type { Generation } from '../../../shared/types.ts';
import { REQUESTS, type PanelRequest, routesOf } from './panel-requests.ts';

/**
 * The features Paneldeck builds on, each found in a panel's own catalogue by a short list of
 * candidate names per part (the way the Easypanel clients that outlived their generations find
 * theirs): a part is there when one of its names is listed with the kind Paneldeck expects. The
 * 2.33 names are flat (`listDatabaseBackups`); tRPC's and the RPC layer's are `ns.proc`.
 */
interface FeaturePart {
  part: string;
  kind: 'read' | 'write';
  flat: readonly string[];
  dotted: readonly string[];
}

interface Feature {
  id: FeatureId;
  label: string;
  parts: readonly FeaturePart[];
}

const read = (part: string, flat: readonly string[], dotted: readonly string[]): FeaturePart => ({ part, kind: 'read', flat, dotted });
const write = (part: string, flat: readonly string[], dotted: readonly string[]): FeaturePart => ({ part, kind: 'write', flat, dotted });

export const FEATURES: readonly Feature[] = [
  {
    id: 'updates',
    label: 'updates',
    parts: [read('status', ['getUpdateStatus'], ['update.getStatus']), write('update', ['update'], ['update.update'])],
  },
  {
    id: 'databaseBackups',
    label: 'database backups',
    parts: [
      read('schedules', ['listDatabaseBackups'], ['databaseBackups.listDatabaseBackups']),
      write('run', ['runDatabaseBackup'], ['databaseBackups.runDatabaseBackup']),
    ],
  },
  {
    id: 'volumeBackups',
    label: 'volume backups',
    parts: [
      read('schedules', ['listVolumeBackups'], ['volumeBackups.listVolumeBackups']),
      write('run', ['runVolumeBackup'], ['volumeBackups.runVolumeBackup']),
    ],
  },
  {
    id: 'domains',
    label: "list of a service's domains",
    // Older panels keep an app's domains in its settings.
    parts: [read('list', ['listDomains', 'inspectAppService'], ['domains.listDomains', 'services.app.inspectService'])],
  },
  {
    id: 'deployments',
    label: 'actions history (deployments and build logs)',
    parts: [read('list', ['listActions'], ['actions.listActions']), read('one', ['getAction'], ['actions.getAction'])],
  },
  {
    id: 'cancelDeploy',
    label: 'way to cancel a running action',
    parts: [write('kill', ['killAction'], ['actions.killAction'])],
  },
  {
    id: 'serviceActions',
    label: 'deploy, start, stop or restart of an app',
    parts: [
      write('deploy', ['deployAppService'], ['services.app.deployService']),
      write('restart', ['restartAppService'], ['services.app.restartService']),
    ],
  },
];

/** What a catalogue lists, as the features are judged on: each operation's name and kind. */
export type Listed = ReadonlyMap<string, 'read' | 'write'>;

const isFlat = (generation: Generation) => generation === 'public';

/** Each feature as the catalogue has it. */
export function resolveFeatures(generation: Generation, listed: Listed): FeatureState[] {
  return FEATURES.map(({ id, label, parts }) => {
    const operations: string[] = [];
    const missing: string[] = [];
    for (const part of parts) {
      const names = isFlat(generation) ? part.flat : part.dotted;
      const found = names.find((name) => listed.get(name) === part.kind);
      if (found) operations.push(found);
      else missing.push(part.part);
    }
    return { id, label, available: missing.length === 0, operations, missing };
  });
}

/** A route of the request table as the generation's catalogue names it; null for one it does not list (2.33's reads through RPC). */
function catalogueName(generation: Generation, route: string): string | null {
  if (generation === 'public') return route.startsWith('/rpc/') ? null : route.slice(1);
  if (generation === 'rpc') return route.startsWith('/rpc/') ? route.slice('/rpc/'.length).replaceAll('/', '.') : null;
  return route.startsWith('/trpc/') ? route.slice('/trpc/'.length) : null;
}

/** The log in and the session read, which every sign-in relies on (panel-endpoints.ts, not in the request table). */
const SIGN_IN: readonly { doing: string; kind: 'read' | 'write'; flat: string; dotted: string }[] = [
  { doing: 'logging in', kind: 'write', flat: 'login', dotted: 'auth.login' },
  { doing: 'reading the session', kind: 'read', flat: 'getSession', dotted: 'auth.getSession' },
];

/**
 * The requests Paneldeck sends that the catalogue lacks, or lists with the other kind: a request
 * with several names is drift only when none of them is listed. On 2.31–2.32 a kind is a guess from
 * the name (docs/easypanel-api.md), so only a missing name counts there.
 */
export function driftOf(generation: Generation, listed: Listed): DriftLine[] {
  const lines: DriftLine[] = [];
  const judge = (doing: string, kind: 'read' | 'write', names: readonly string[]) => {
    if (names.length === 0) return;
    const kinds = names.flatMap((name) => listed.get(name) ?? []);
    if (kinds.length === 0) lines.push({ doing, names: [...names], problem: 'missing' });
    else if (generation !== 'rpc' && !kinds.includes(kind)) lines.push({ doing, names: [...names], problem: 'kind' });
  };
  for (const { doing, kind, flat, dotted } of SIGN_IN) judge(doing, kind, [isFlat(generation) ? flat : dotted]);
  for (const operation of Object.values(REQUESTS) as PanelRequest[]) {
    // Through RPC on 2.33: the 2.33 catalogue lists the flat name only, which Paneldeck does not send.
    if (operation.via?.[generation]) continue;
    const names = routesOf(operation, generation).flatMap((route) => catalogueName(generation, route) ?? []);
    judge(operation.doing, operation.kind === 'query' ? 'read' : 'write', names);
  }
  return lines;
}

/** A catalogue read already, as a view's request consults it: its generation and what it lists. */
export interface KnownCatalogue {
  generation: Generation;
  operations: readonly { name: string; kind: 'read' | 'write' }[];
}

/**
 * Before a view's request for `feature`: when the panel's catalogue is known (read for its version
 * already) and lacks the feature, NOT_FOUND saying "this panel's Easypanel has no …", with nothing
 * sent. With no catalogue known nothing is said, and the request goes as ever.
 */
export function refuseMissingFeature(known: KnownCatalogue | null, feature: FeatureId): void {
  if (!known) return;
  const listed = new Map(known.operations.map(({ name, kind }) => [name, kind]));
  const state = resolveFeatures(known.generation, listed).find((one) => one.id === feature);
  if (state && !state.available) throw new PanelError('NOT_FOUND', missingFeatureText(state));
}
