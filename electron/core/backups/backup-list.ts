import { BACKUPS_KEPT_MS, type BackupSchedule, type PanelBackups } from '../../../shared/backups.ts';
import { settle } from '../../../shared/contract/envelope.ts';
import { PanelError } from '../../../shared/contract/errors.ts';
import type { CoreMethods } from '../context/core-context.ts';
import { callPanel, MissingRouteError } from '../easypanel/panel-calls.ts';
import type { RequestSettings } from '../easypanel/panel-endpoints.ts';
import { type KnownCatalogue, refuseMissingFeature } from '../easypanel/panel-features.ts';
import { KeptPass } from '../schedule/kept-pass.ts';
import { WorkPool } from '../schedule/work-pool.ts';
import { secretMatcher } from '../secrets/secret-match.ts';
import { type SignedIn, type TokenCalls, withToken } from '../sign-in/with-token.ts';
import type { DataFolder } from '../storage/data-folder.ts';
import {
  isDatabase,
  type ListedService,
  lastRunsOf,
  RUN_TYPES,
  RUNS_READ,
  schedulesOf,
  servicesOf,
  unprotectedOf,
} from './backup-answers.ts';
import type { KeptFile } from '../storage/kept-file.ts';

/**
 * The fleet's Backups view (`listBackups`): each signed-in panel's services, each database's
 * backup schedules and each service's volume backup schedules, and the newest runs of each kind
 * from the panel's actions history. Panels are read `BACKUP_PANELS_AT_ONCE` at a time, each
 * panel's service reads `SCHEDULE_READS_PER_PANEL` at a time; the pass is kept (on disk too) a day
 * unless the operator asks again. A panel that could not be read says why and keeps its last good read.
 */

/** Panels read at once. */
export const BACKUP_PANELS_AT_ONCE = 8;
/** One panel's schedule reads in flight: its other work keeps room. */
export const SCHEDULE_READS_PER_PANEL = 4;
const PROBLEM_MAX = 300;

export interface BackupListParts extends TokenCalls {
  request: RequestSettings;
  now(): Date;
  store: Pick<KeptFile<PanelBackups>, 'load' | 'save'>;
  /** Each panel's own catalogue, where its backup operations are looked up by name. */
  catalogues: { of(held: SignedIn): Promise<{ catalogue: KnownCatalogue }> };
  /** Told after each pass: the alerts of failed runs and unprotected databases are raised from it. */
  backupsRead?(state: DataFolder, panels: readonly PanelBackups[]): void;
}

/** Why a panel's backups could not be read, in words, never holding its token. */
function problemOf(error: unknown, token: string | undefined): string {
  let words: string;
  if (error instanceof MissingRouteError) words = "This panel's Easypanel has no database backups.";
  else if (error instanceof PanelError) words = error.message;
  else words = 'Reading the backups failed unexpectedly.';
  if (token && secretMatcher([token])(words)) return 'Reading the backups failed (the message held the sign-in token, and is not shown).';
  return words.length > PROBLEM_MAX ? `${words.slice(0, PROBLEM_MAX - 1)}…` : words;
}

export function backupListMethods(parts: BackupListParts): CoreMethods<'listBackups'> {
  const { request, now, catalogues } = parts;

  /** Which backup kinds the panel's catalogue lists; none listed: NOT_FOUND saying so. A catalogue that cannot be read decides nothing. */
  async function kindsOf(held: SignedIn): Promise<{ volumes: boolean }> {
    const known = await catalogues.of(held).then(
      ({ catalogue }) => catalogue,
      () => null,
    );
    refuseMissingFeature(known, 'databaseBackups');
    const volumes = await settle(async () => refuseMissingFeature(known, 'volumeBackups'));
    return { volumes: volumes.ok };
  }

  async function readPanel(panelId: string, signal: AbortSignal): Promise<PanelBackups> {
    return withToken(
      parts,
      panelId,
      async (held, whileSignedIn) => {
        const { record, token } = held;
        const call = (name: Parameters<typeof callPanel>[3], input: Record<string, unknown> | undefined) =>
          callPanel(request, record, token, name, input, { signal: whileSignedIn });
        const { volumes } = await kindsOf(held);
        const services = servicesOf(await call('listProjectsAndServices', undefined));
        const reads = services.flatMap((service): { service: ListedService; kind: 'database' | 'volume' }[] => [
          ...(isDatabase(service) ? [{ service, kind: 'database' as const }] : []),
          ...(volumes ? [{ service, kind: 'volume' as const }] : []),
        ]);
        const answers = await new WorkPool<
          (typeof reads)[number],
          undefined,
          { ok: true; value: BackupSchedule[] } | { ok: false; error: unknown }
        >({
          limit: SCHEDULE_READS_PER_PANEL,
          runOne: async ({ service, kind }) => {
            const names = { projectName: service.projectName, serviceName: service.serviceName };
            // The error itself, not its envelope: its kind decides the words of the panel's problem.
            try {
              return {
                ok: true,
                value: schedulesOf(await call(kind === 'database' ? 'listDatabaseBackups' : 'listVolumeBackups', names), kind, service),
              };
            } catch (error) {
              return { ok: false, error };
            }
          },
          cancelled: () => ({ ok: false, error: new PanelError('CANCELLED', 'Cancelled.') }),
        }).run(reads);
        const failed = answers.find((answer) => !answer.ok);
        if (failed && !failed.ok) throw failed.error;
        const schedules = answers.flatMap((answer) => (answer.ok ? answer.value : []));
        const holdsToken = secretMatcher([token]);
        const kinds = volumes ? (['database', 'volume'] as const) : (['database'] as const);
        const runs = new Map(
          await Promise.all(
            kinds.map(
              async (kind) =>
                [kind, lastRunsOf(await call('listActions', { type: RUN_TYPES[kind], limit: RUNS_READ }), kind, holdsToken)] as const,
            ),
          ),
        );
        const backups = schedules.map((one) => ({
          ...one,
          lastRun: runs.get(one.kind)?.get(`${one.projectName}/${one.serviceName}`) ?? null,
        }));
        return { panelId, readAt: now().toISOString(), backups, unprotected: unprotectedOf(services, schedules), problem: null };
      },
      signal,
    );
  }

  async function readAll(previous: PanelBackups[] | null): Promise<PanelBackups[]> {
    const state = await parts.state();
    const { registry, vault } = state;
    const panelIds = registry.list().flatMap((record) => (vault.token(record.id, record.baseUrl) ? [record.id] : []));
    const before = new Map((previous ?? []).map((panel) => [panel.panelId, panel]));
    const read = await new WorkPool<string, undefined, PanelBackups>({
      limit: BACKUP_PANELS_AT_ONCE,
      runOne: async (panelId, _prepared, signal) => {
        let failure: unknown;
        try {
          return await readPanel(panelId, signal);
        } catch (error) {
          failure = error;
        }
        const last = before.get(panelId);
        const record = registry.get(panelId);
        const token = record ? vault.token(panelId, record.baseUrl) : undefined;
        // The last good read stays in view, said to be old by its problem and its time.
        return {
          panelId,
          readAt: last?.readAt ?? null,
          backups: last?.backups ?? [],
          unprotected: last?.unprotected ?? [],
          problem: problemOf(failure, token),
        };
      },
      cancelled: (panelId) => ({ panelId, readAt: null, backups: [], unprotected: [], problem: 'Not read.' }),
    }).run(panelIds);
    try {
      parts.backupsRead?.(state, read);
    } catch {
      // An alert that could not be kept does not fail the read.
    }
    return read;
  }

  const kept = new KeptPass({ keptMs: BACKUPS_KEPT_MS, now, read: readAll, store: parts.store });

  return {
    async listBackups(query) {
      const panels = await kept.get(query?.refresh === true);
      // The panels still signed in: a sign-in that ended takes its backups away.
      const { registry, vault } = await parts.state();
      return panels.filter(({ panelId }) => {
        const record = registry.get(panelId);
        return record !== undefined && Boolean(vault.token(panelId, record.baseUrl));
      });
    },
  };
}
