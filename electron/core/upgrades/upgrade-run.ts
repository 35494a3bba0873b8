import { PanelError } from '../../../shared/contract/errors.ts';
import { plural } from '../../../shared/counts.ts';
import type { PanelUpgradeResult, UpgradeOptions, UpgradePhase, UpgradeRun } from '../../../shared/upgrades.ts';
import { type WriteOutcome, writeRecorder } from '../activity/activity-methods.ts';
import type { CoreMethods, Emit } from '../context/core-context.ts';
import { callPanel } from '../easypanel/panel-calls.ts';
import type { RequestSettings } from '../easypanel/panel-endpoints.ts';
import { RunHolder } from '../schedule/run-holder.ts';
import { WorkPool } from '../schedule/work-pool.ts';
import type { SessionReader } from '../sign-in/session-reader.ts';
import { failedWithToken, type TokenCalls } from '../sign-in/with-token.ts';
import type { DataFolder } from '../storage/data-folder.ts';
import { askToConfirm, type ConfirmWrite } from '../writes/confirmation.ts';
import { checkAsPlanned, refuseRemovedPanels } from '../writes/held-sign-in.ts';
import { writeOutcome } from '../writes/write-outcomes.ts';
import { waitForReturn } from './panel-return.ts';
import { type PlannedUpgrade, readForPlan, type UpgradeCandidate, upgradePlan } from './upgrade-plan.ts';

/**
 * Upgrading Easypanel on many panels (`upgradePanels`, `cancelUpgrades`): one plan, asked once in
 * main's own confirmation; then wave after wave (the canary alone first), each panel's update
 * sent once, never retried, recorded in the activity log before it is sent and with its outcome
 * once the panel is back (or not); the next wave starts only when every panel of this one is
 * back on a new version, read again with its token (session, version, generation). The run stops
 * at the first panel that failed or is not back in time: the rest are skipped.
 */

export interface UpgradeParts extends TokenCalls {
  reader: TokenCalls['reader'] & Pick<SessionReader, 'read'>;
  request: RequestSettings;
  emit: Emit;
  confirmWrite?: ConfirmWrite | undefined;
  /** Where a panel not back in time is raised. */
  alerts: { upgradeNotBack(state: DataFolder, panelId: string, message: string): void };
  now(): Date;
  /** How long a panel has to come back after its update; the app: 15 minutes. */
  returnDeadlineMs?: number;
  /** Between two looks at a panel that is away; the app: 5 seconds. */
  returnPollMs?: number;
}

/** Panels whose version is read at once for the plan. */
const PLAN_READS_AT_ONCE = 8;
const RETURN_DEADLINE_MS = 15 * 60_000;
const RETURN_POLL_MS = 5_000;

const ALREADY_RUNNING = 'Paneldeck is already upgrading panels. Wait for that run to finish, or cancel it, before starting another.';
const CANCELLED_MESSAGE = 'Not sent: the run was cancelled before this panel was reached.';

/** The upgrade run under way: cancelling starts nothing more and ends the waiting. */
interface HeldRun {
  readonly panelIds: readonly string[];
  readonly options: UpgradeOptions;
  /** Each panel's last step, as told: what `getUpgradeRun` answers. */
  readonly steps: Map<string, { phase: UpgradePhase; message: string | null }>;
  cancelling: boolean;
  readonly stop: AbortController;
  pool: WorkPool<string, undefined, UpgradeCandidate> | null;
  cancel(): void;
}

/** Why a panel's upgrade did not end `upgraded`, as the run and the activity log say it. */
class UpgradeEnd extends Error {
  readonly outcome: 'failed' | 'unknown';

  constructor(outcome: 'failed' | 'unknown', message: string) {
    super(message);
    this.outcome = outcome;
  }
}

export function upgradeMethods(parts: UpgradeParts): CoreMethods<'upgradePanels' | 'cancelUpgrades' | 'getUpgradeRun'> {
  const runs = new RunHolder<HeldRun>(ALREADY_RUNNING);
  const deadlineMs = parts.returnDeadlineMs ?? RETURN_DEADLINE_MS;
  const pollMs = parts.returnPollMs ?? RETURN_POLL_MS;

  const tell = (panelId: string, phase: UpgradePhase, message: string | null = null) => {
    runs.current()?.steps.set(panelId, { phase, message });
    try {
      parts.emit({ type: 'upgradeChanged', panelId, phase, message });
    } catch {
      // A window that is gone must not stop a run.
    }
  };

  /** The outcome of a write that ended in an error: the panel's refusal is failed, no answer unknown (write-outcomes.ts). */
  const judged = (error: unknown): WriteOutcome => {
    if (error instanceof UpgradeEnd) return { outcome: error.outcome, message: error.message };
    return writeOutcome(error, 'the update may have started: look at the panel and its version.');
  };

  /**
   * One panel's upgrade: sent once while the panel is signed in as planned, then waited for. A
   * lost answer to the update itself is the usual case (the panel restarts while answering): the
   * wait then says what came of it. Resolves with the version the panel came back on.
   */
  async function upgradeOne(state: DataFolder, planned: PlannedUpgrade, run: HeldRun): Promise<PanelUpgradeResult> {
    const { panelId, record, signIn, versionBefore } = planned;
    const result = (outcome: PanelUpgradeResult['outcome'], versionAfter: string | null, message: string | null): PanelUpgradeResult => {
      tell(panelId, outcome, message);
      return { panelId, outcome, versionBefore, versionAfter, message };
    };
    let sent = false;
    try {
      checkAsPlanned(state, signIn);
      const versionAfter = await writeRecorder(parts, state.activity)(
        record,
        { action: 'upgrade' },
        async () => {
          sent = true;
          tell(panelId, 'sent');
          const answered = await callPanel(parts.request, record, signIn.token, 'updatePanel', undefined, {
            generation: signIn.generation,
            beforeSend: () => checkAsPlanned(state, signIn),
          }).then(
            () => null,
            (error: unknown) => error,
          );
          if (answered !== null && judged(answered).outcome !== 'unknown') throw answered;
          tell(panelId, 'waiting');
          return awaitReturn(state, planned, run);
        },
        { secrets: [signIn.token], judge: judged },
      );
      return result('upgraded', versionAfter, null);
    } catch (error) {
      if (!sent) {
        const message = error instanceof PanelError ? error.message : 'Not sent: Paneldeck failed before sending it.';
        return result('failed', null, message);
      }
      const { outcome, message } = judged(error);
      const ended = outcome === 'unknown' ? 'unknown' : 'failed';
      if (ended === 'unknown') parts.alerts.upgradeNotBack(state, panelId, message ?? `${record.name} is not back after its update.`);
      return result(ended, null, message);
    }
  }

  /** Waits for the panel and reads it again (the session reader follows it into a newer generation); the version it is back on. */
  async function awaitReturn(state: DataFolder, { panelId, record, signIn, versionBefore }: PlannedUpgrade, run: HeldRun): Promise<string> {
    const minutes = plural(Math.round(deadlineMs / 60_000), 'minute');
    const back = await waitForReturn(
      {
        request: parts.request,
        now: () => parts.now().getTime(),
        pollMs,
        deadline: parts.now().getTime() + deadlineMs,
        signal: run.stop.signal,
      },
      record,
      signIn.token,
      versionBefore,
    );
    if (back.kind === 'cancelled') {
      throw new UpgradeEnd(
        'unknown',
        `The run was cancelled while waiting for ${record.name}: its update was sent. Look at the panel and its version.`,
      );
    }
    if (back.kind === 'not-back') {
      throw new UpgradeEnd('unknown', `${record.name} was not back on a new version within ${minutes} of its update. Look at the panel.`);
    }
    if (back.kind === 'refused') {
      const refusal = new PanelError('UNAUTHORIZED', back.message);
      await failedWithToken(parts, { record, token: signIn.token, state }, refusal);
      throw new UpgradeEnd('unknown', `${record.name} refused its token after the update: log in again, then look at its version.`);
    }
    if (back.version === versionBefore) {
      throw new UpgradeEnd('failed', `${record.name} restarted and still runs Easypanel ${back.version}: the update did not take.`);
    }
    // Read again as the operator opening it would: the session, the version and a newer generation, with its token.
    parts.reader.learntVersion(state, panelId, back.version);
    try {
      await parts.reader.read(state, panelId, run.stop.signal);
    } catch (error) {
      const why = error instanceof PanelError ? error.message : 'it could not be read';
      throw new UpgradeEnd(
        'unknown',
        `${record.name} answers on Easypanel ${back.version}, but its session could not be read again (${why}).`,
      );
    }
    return state.history.get(panelId).panelVersion ?? back.version;
  }

  return {
    async upgradePanels(panelIds, options: UpgradeOptions) {
      const start = (): HeldRun => {
        const held: HeldRun = {
          panelIds: [...panelIds],
          options: { ...options },
          steps: new Map(),
          cancelling: false,
          stop: new AbortController(),
          pool: null,
          cancel: () => {
            held.cancelling = true;
            held.pool?.cancel();
            held.stop.abort();
          },
        };
        return held;
      };
      const results = await runs.hold(start, async (run) => {
        const state = await parts.state();
        refuseRemovedPanels(state, panelIds, 'chosen');
        const nameOf = (panelId: string) => state.registry.get(panelId)?.name ?? 'a panel removed meanwhile';
        for (const panelId of panelIds) tell(panelId, 'queued');
        const pool = new WorkPool<string, undefined, UpgradeCandidate>({
          limit: PLAN_READS_AT_ONCE,
          runOne: (panelId, _prepared, signal) => readForPlan(parts, panelId, signal, nameOf),
          cancelled: (panelId) => ({ panelId, panelName: nameOf(panelId), versionBefore: null, leftOut: CANCELLED_MESSAGE }),
        });
        run.pool = pool;
        const candidates = await pool.run([...panelIds]);
        // A panel that nothing was sent to: its version as read for the plan, none after.
        const ended = (one: UpgradeCandidate, outcome: 'cancelled' | 'skipped', message: string): PanelUpgradeResult => {
          tell(one.panelId, outcome, message);
          const versionBefore = 'planned' in one ? one.planned.versionBefore : one.versionBefore;
          return { panelId: one.panelId, outcome, versionBefore, versionAfter: null, message };
        };
        const cancelledAll = () => candidates.map((one) => ended(one, 'cancelled', CANCELLED_MESSAGE));
        if (run.cancelling) return cancelledAll();
        const { plan, waves } = upgradePlan(candidates, options, Math.round(deadlineMs / 60_000));
        if (waves.length > 0) {
          await askToConfirm(parts.confirmWrite, plan);
          if (run.cancelling) return cancelledAll();
        }
        const done = new Map<string, PanelUpgradeResult>();
        let stoppedAt: PanelUpgradeResult | null = null;
        for (const wave of waves) {
          if (run.cancelling || stoppedAt !== null) break;
          const current = await parts.state();
          const waveResults = await Promise.all(wave.map((planned) => upgradeOne(current, planned, run)));
          for (const one of waveResults) done.set(one.panelId, one);
          stoppedAt = waveResults.find((one) => one.outcome !== 'upgraded') ?? null;
        }
        const stopName = stoppedAt ? nameOf(stoppedAt.panelId) : '';
        return candidates.map((one): PanelUpgradeResult => {
          const result = done.get(one.panelId);
          if (result) return result;
          if ('leftOut' in one) return ended(one, 'skipped', `Left out: ${one.leftOut}`);
          if (run.cancelling) return ended(one, 'cancelled', CANCELLED_MESSAGE);
          return ended(one, 'skipped', `Not started: the run stopped at ${stopName} (${stoppedAt?.outcome ?? 'stopped'}).`);
        });
      });
      try {
        parts.emit({ type: 'upgradesEnded', results });
      } catch {
        // The answer still carries the results.
      }
      return results;
    },

    async cancelUpgrades() {
      runs.cancel();
    },

    async getUpgradeRun() {
      const run = runs.current();
      if (!run) return null;
      const { panelIds, options, steps, cancelling } = run;
      return {
        panelIds: [...panelIds],
        options: { ...options },
        steps: [...steps].map(([panelId, step]) => ({ panelId, ...step })),
        cancelling,
      } satisfies UpgradeRun;
    },
  };
}
