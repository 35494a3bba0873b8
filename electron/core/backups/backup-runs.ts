import { randomUUID } from 'node:crypto';
import { BACKUP_RUNS_AT_ONCE, BACKUP_RUNS_PER_PANEL, type BackupRunItem, type BackupRunResult } from '../../../shared/backups.ts';
import { PanelError } from '../../../shared/contract/errors.ts';
import { plural } from '../../../shared/counts.ts';
import type { PlanLeftOut, PlannedRequest } from '../../../shared/write-plan.ts';
import { writeRecorder } from '../activity/activity-methods.ts';
import type { CoreMethods, Emit } from '../context/core-context.ts';
import { callPanel } from '../easypanel/panel-calls.ts';
import type { RequestSettings } from '../easypanel/panel-endpoints.ts';
import { type KnownCatalogue, refuseMissingFeature } from '../easypanel/panel-features.ts';
import { REQUESTS, routesOf } from '../easypanel/panel-requests.ts';
import { RunHolder } from '../schedule/run-holder.ts';
import { WorkPool } from '../schedule/work-pool.ts';
import { failedWithToken, type SignedIn, signedIn, type TokenCalls } from '../sign-in/with-token.ts';
import type { PanelRecord } from '../storage/panel-registry.ts';
import { askToConfirm, type ConfirmWrite } from '../writes/confirmation.ts';
import { checkAsPlanned, type PlannedSignIn, plannedSignIn } from '../writes/held-sign-in.ts';
import { writeOutcome } from '../writes/write-outcomes.ts';
import { plannedPanel, requestLine, writePlan } from '../writes/write-plans.ts';

/**
 * Runs chosen backup schedules now (`runBackups`): one plan of every run (and what is left out,
 * and why) asked once in main's own confirmation, then each confirmed run sent once, never
 * retried, `BACKUP_RUNS_AT_ONCE` at a time and `BACKUP_RUNS_PER_PANEL` a panel, only while its
 * panel is signed in as planned, each recorded in the activity log as `runBackup`.
 * `cancelBackups` starts nothing more.
 */

export interface BackupRunParts extends TokenCalls {
  request: RequestSettings;
  emit: Emit;
  confirmWrite?: ConfirmWrite | undefined;
  /** The panel's catalogue when read already: a panel without the kind's run is left out, with no request. */
  catalogues?: { known(held: SignedIn): { catalogue: KnownCatalogue } | null };
}

const ALREADY_RUNNING = 'Paneldeck is already running backups. Wait for them to finish, or cancel them, before starting more.';
const CANCELLED_MESSAGE = 'Not sent: the run was cancelled before this backup was reached.';
const DETAIL =
  'Each backup runs once now, as its schedule would; nothing else changes. If an answer does not come, the outcome is unknown: look at the service\u2019s backups in the panel.';
const CHECK = 'the backup may have started: look at the service\u2019s backups in the panel.';

/** An item as planned: its request and the sign-in it was planned under, or why it is left out. */
type Planned = { item: BackupRunItem; held: SignedIn; signIn: PlannedSignIn } | { item: BackupRunItem; leftOut: string; panelName: string };

const requestOf = (item: BackupRunItem) => (item.kind === 'database' ? 'runDatabaseBackup' : 'runVolumeBackup');
const labelOf = (item: BackupRunItem) => `${item.kind} backup ${item.id} of ${item.projectName}/${item.serviceName}`;

function planOf(state: SignedIn['state'], item: BackupRunItem, parts: BackupRunParts): Planned {
  const panelName = state.registry.get(item.panelId)?.name ?? 'a panel removed meanwhile';
  try {
    const held = signedIn(state, item.panelId);
    refuseMissingFeature(parts.catalogues?.known(held)?.catalogue ?? null, item.kind === 'database' ? 'databaseBackups' : 'volumeBackups');
    return { item, held, signIn: plannedSignIn(state, held.record) };
  } catch (error) {
    return { item, panelName, leftOut: error instanceof PanelError ? error.message : 'Paneldeck could not plan it.' };
  }
}

function runPlan(planned: readonly Planned[]) {
  const byPanel = new Map<string, { record: PanelRecord; requests: PlannedRequest[] }>();
  const leftOut: PlanLeftOut[] = [];
  for (const one of planned) {
    if ('leftOut' in one) {
      leftOut.push({ panelName: one.panelName, label: `run ${labelOf(one.item)}`, why: one.leftOut });
      continue;
    }
    const { record } = one.held;
    const panel = byPanel.get(record.id) ?? { record, requests: [] };
    const route = routesOf(REQUESTS[requestOf(one.item)], record.generation)[0] ?? '';
    panel.requests.push({ label: `run ${labelOf(one.item)}`, request: requestLine('POST', route) });
    byPanel.set(record.id, panel);
  }
  const count = planned.length - leftOut.length;
  const only = byPanel.size === 1 ? [...byPanel.values()][0]!.record.name : null;
  return writePlan({
    id: randomUUID(),
    title: `Run ${plural(count, 'backup')} now on ${only ?? plural(byPanel.size, 'panel')}`,
    detail: DETAIL,
    confirmLabel: count === 1 ? 'Run backup' : 'Run backups',
    panels: [...byPanel.values()].map(({ record, requests }) => plannedPanel(record, requests)),
    leftOut,
    several: `run ${plural(count, 'backup')}`,
  });
}

export function backupRunMethods(parts: BackupRunParts): CoreMethods<'runBackups' | 'cancelBackups'> {
  const runs = new RunHolder<{ cancelling: boolean; pool: { cancel(): void } | null; cancel(): void }>(ALREADY_RUNNING);

  /** One confirmed run: sent once, only while its panel is signed in as planned; a lost answer is unknown. */
  async function runOne(one: Extract<Planned, { held: SignedIn }>): Promise<BackupRunResult> {
    const { item, held, signIn } = one;
    // Sent as the panel's account for writes, with that account's token.
    const { record, state } = held;
    const { token } = signIn;
    let sent = false;
    try {
      checkAsPlanned(state, signIn);
      await writeRecorder(parts, state.activity)(
        record,
        { action: 'runBackup', projectName: item.projectName, serviceName: item.serviceName },
        () => {
          sent = true;
          return callPanel(
            parts.request,
            record,
            token,
            requestOf(item),
            { id: item.id },
            {
              generation: signIn.generation,
              beforeSend: () => checkAsPlanned(state, signIn),
            },
          );
        },
        { secrets: [token], judge: (error) => writeOutcome(error, CHECK) },
      );
      return { ...item, outcome: 'done', message: null };
    } catch (error) {
      // A 401 ends the panel's sign-in, as any call's does: its items left are then not sent.
      await failedWithToken(parts, held, error).catch(() => undefined);
      const { outcome, message } = writeOutcome(error, CHECK);
      if (!sent) return { ...item, outcome: 'failed', message: message ?? 'Not sent.' };
      return { ...item, outcome: outcome === 'unknown' ? 'unknown' : 'failed', message };
    }
  }

  return {
    async runBackups(asked) {
      const start = () => {
        const held = {
          cancelling: false,
          pool: null as { cancel(): void } | null,
          cancel: () => {
            held.cancelling = true;
            held.pool?.cancel();
          },
        };
        return held;
      };
      return runs.hold(start, async (held) => {
        const cancelled = (item: BackupRunItem): BackupRunResult => ({ ...item, outcome: 'cancelled', message: CANCELLED_MESSAGE });
        const state = await parts.state();
        const planned = asked.map((item) => planOf(state, item, parts));
        const writes = planned.flatMap((one) => ('held' in one ? [one] : []));
        if (writes.length === 0) {
          throw new PanelError(
            'INVALID_INPUT',
            `Nothing was sent: ${planned.map((one) => ('leftOut' in one ? one.leftOut : '')).join(' ')}`.slice(0, 500),
          );
        }
        // One plan for the whole run, asked once; a no sends nothing.
        await askToConfirm(parts.confirmWrite, runPlan(planned));
        if (held.cancelling) return asked.map(cancelled);
        const pool = new WorkPool<(typeof writes)[number], undefined, BackupRunResult>({
          limit: BACKUP_RUNS_AT_ONCE,
          perKey: BACKUP_RUNS_PER_PANEL,
          keyOf: ({ item }) => item.panelId,
          // The signal is left unread: a run already sent finishes, so its outcome is known.
          runOne: (one) => runOne(one),
          // Never sent, so not in the activity log.
          cancelled: ({ item }) => cancelled(item),
        });
        held.pool = pool;
        const results = await pool.run(writes);
        const byItem = new Map(writes.map((one, index) => [one.item, results[index]!]));
        return planned.map(
          (one): BackupRunResult =>
            byItem.get(one.item) ?? { ...one.item, outcome: 'failed', message: 'leftOut' in one ? one.leftOut : null },
        );
      });
    },

    async cancelBackups() {
      runs.cancel();
    },
  };
}
