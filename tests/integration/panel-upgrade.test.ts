import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Core } from '../../electron/core/index.ts';
import type { WritePlan } from '../../shared/write-plan.ts';
import { rejectsWith } from '../support/helpers.ts';
import { NEXT, outcomes, type Seen, updateRequests, upgradeFleetPerTest } from '../support/upgrade-fleet.ts';

/**
 * upgradePanels over real HTTP against reference panels of the three generations that restart
 * when updated (502 while away, then the new version and its generation): the canary alone, then
 * waves; one confirmation; each update sent once; the next wave only after the last is back; a
 * failure or a panel not back stops the run (the rest skipped); cancel while waiting leaves the
 * panel unknown; a lost answer with the panel back on a new version is an upgrade.
 */

/** `count` signed-in panels (generations in turn), each with its update as `update(index)` says. */
const fleet = upgradeFleetPerTest();

describe('upgradePanels', () => {
  test('the canary alone, then waves: each wave starts only after the one before is back; one confirmation; each update sent once', async () => {
    const run = await fleet(7, (_, style) => ({ to: NEXT[style], awayMs: 15 }));
    const results = await run.core.upgradePanels(run.ids, { canary: 1, waveSize: 3 });
    assert.deepEqual(outcomes(results), Array(7).fill('upgraded'));
    assert.equal(run.plans.length, 1, 'asked once');
    const plan = run.plans[0]!;
    assert.equal(plan.panels.length, 7);
    assert.match(plan.panels[0]!.requests[0]!.label, /from 2\.28\.1 \(first, alone\)/);
    assert.match(plan.panels[1]!.requests[0]!.label, /from 2\.32\.2 \(wave 1\)/);
    assert.match(plan.panels[4]!.requests[0]!.label, /wave 2/);
    for (const panel of run.panels) assert.equal(updateRequests(panel), 1, 'one update a panel, never resent');
    // Waves: [0], [1, 2, 3], [4, 5, 6]. Every panel of a wave is away only after the wave before is back.
    const position = (what: Seen['what'], panel: number) => run.seen.findIndex((one) => one.what === what && one.panel === panel);
    const waves = [[0], [1, 2, 3], [4, 5, 6]];
    for (let wave = 1; wave < waves.length; wave++) {
      const lastBack = Math.max(...waves[wave - 1]!.map((panel) => position('back', panel)));
      for (const panel of waves[wave]!)
        assert.ok(position('away', panel) > lastBack, `panel ${panel} went away before wave ${wave - 1} was back`);
    }
    // Back on the new version, followed into its generation with the same token, still signed in.
    const listed = new Map((await run.core.listPanels()).map((panel) => [panel.id, panel]));
    for (const [index, result] of results.entries()) {
      const style = (['trpc', 'rpc', 'public'] as const)[index % 3]!;
      assert.equal(result.versionBefore, { trpc: '2.28.1', rpc: '2.32.2', public: '2.33.4' }[style]);
      assert.equal(result.versionAfter, NEXT[style]);
      const panel = listed.get(result.panelId)!;
      assert.equal(panel.signedIn, true);
      assert.equal(
        panel.generation,
        { trpc: 'rpc', rpc: 'public', public: 'public' }[style],
        `panel ${index} followed into its new generation`,
      );
      assert.equal(panel.updateAvailable, false, 'the version read after the upgrade says none is out');
    }
    // Each upgrade in the activity log, before and after, no token in it.
    const { entries } = await run.core.listActivity();
    const upgrades = entries.filter((entry) => entry.what.action === 'upgrade');
    assert.equal(upgrades.length, 7);
    assert.ok(upgrades.every((entry) => entry.outcome === 'ok' && entry.finishedAt !== null));
    const ended = run.events.filter((event) => event.type === 'upgradesEnded');
    assert.equal(ended.length, 1);
  });

  test('a refused update stops the run: its wave finishes, the waves after it are skipped and get nothing', async () => {
    const run = await fleet(6, (index, style) => (index === 1 ? { to: NEXT[style], answer: 'refuse' } : { to: NEXT[style], awayMs: 10 }));
    const results = await run.core.upgradePanels(run.ids, { canary: 1, waveSize: 2 });
    assert.deepEqual(outcomes(results), ['upgraded', 'failed', 'upgraded', 'skipped', 'skipped', 'skipped']);
    assert.match(results[1]!.message ?? '', /could not be pulled/);
    assert.match(results[3]!.message ?? '', /stopped at Panel 1 \(failed\)/);
    assert.deepEqual(run.panels.map(updateRequests), [1, 1, 1, 0, 0, 0]);
    const { entries } = await run.core.listActivity();
    const failed = entries.filter((entry) => entry.what.action === 'upgrade' && entry.outcome === 'failed');
    assert.equal(failed.length, 1);
  });

  test('a panel not back within its deadline is unknown, raised as an alert, and the rest are skipped', async () => {
    const run = await fleet(3, (index, style) => ({ to: NEXT[style], awayMs: index === 0 ? 'held' : 10 }), {
      core: { upgrades: { returnPollMs: 10, returnDeadlineMs: 400 } },
    });
    const results = await run.core.upgradePanels(run.ids, { canary: 1, waveSize: 5 });
    assert.deepEqual(outcomes(results), ['unknown', 'skipped', 'skipped']);
    assert.match(results[0]!.message ?? '', /not back on a new version/);
    assert.doesNotMatch(results[0]!.message ?? '', /try again|retry/i);
    assert.deepEqual(run.panels.map(updateRequests), [1, 0, 0]);
    const alerts = await run.core.listAlerts();
    assert.equal(alerts.filter((alert) => alert.kind === 'upgradeNotBack' && alert.panelId === run.ids[0]).length, 1);
    const { entries } = await run.core.listActivity();
    assert.equal(entries.find((entry) => entry.what.action === 'upgrade')?.outcome, 'unknown');
  });

  test('cancel while a panel is away: it is unknown (its update was sent), the panels never sent to are cancelled', async () => {
    const run = await fleet(3, (_, style) => ({ to: NEXT[style], awayMs: 'held' }));
    void run.panels[0]!.nextRestart('away').then(() => run.core.cancelUpgrades());
    const results = await run.core.upgradePanels(run.ids, { canary: 1, waveSize: 5 });
    assert.deepEqual(outcomes(results), ['unknown', 'cancelled', 'cancelled']);
    assert.match(results[0]!.message ?? '', /cancelled while waiting/);
    assert.deepEqual(run.panels.map(updateRequests), [1, 0, 0]);
  });

  test("main holds the run for a window loaded again: each panel's step while it runs, cancelling once asked, nothing once it ended", async () => {
    const run = await fleet(3, (index, style) => ({ to: NEXT[style], awayMs: index === 0 ? 'held' : 10 }));
    assert.equal(await run.core.getUpgradeRun(), null, 'none before');
    const away = run.panels[0]!.nextRestart('away');
    const ended = run.core.upgradePanels(run.ids, { canary: 1, waveSize: 2 });
    await away;
    const during = await run.core.getUpgradeRun();
    assert.deepEqual(during?.panelIds, run.ids);
    assert.deepEqual(during?.options, { canary: 1, waveSize: 2 });
    assert.equal(during?.cancelling, false);
    // The canary away after its update; the wave after it waiting its turn.
    const phaseOf = (steps: { panelId: string; phase: string }[] | undefined, panelId: string) =>
      steps?.find((step) => step.panelId === panelId)?.phase;
    assert.ok(['sent', 'waiting'].includes(phaseOf(during?.steps, run.ids[0]!) ?? ''), phaseOf(during?.steps, run.ids[0]!));
    assert.equal(phaseOf(during?.steps, run.ids[1]!), 'queued');
    // What main answers is a copy: the window's hands on it change nothing in main.
    during?.steps.splice(0);
    assert.equal((await run.core.getUpgradeRun())?.steps.length, 3);
    run.panels[0]!.finishRestart();
    const results = await ended;
    assert.deepEqual(outcomes(results), ['upgraded', 'upgraded', 'upgraded']);
    assert.equal(await run.core.getUpgradeRun(), null, 'none once it ended');
  });

  test('cancelling shows in the run main holds: asked while main asks for the yes, nothing is sent', async () => {
    let core: Core | null = null;
    let held: Awaited<ReturnType<Core['getUpgradeRun']>> = null;
    const run = await fleet(2, (_, style) => ({ to: NEXT[style], awayMs: 10 }), {
      core: {
        confirmWrite: async () => {
          await core!.cancelUpgrades();
          held = await core!.getUpgradeRun();
          return true;
        },
      },
    });
    core = run.core;
    assert.deepEqual(outcomes(await run.core.upgradePanels(run.ids, { canary: 1, waveSize: 1 })), ['cancelled', 'cancelled']);
    assert.equal(held!.cancelling, true);
    assert.deepEqual(
      held!.steps.map((step) => step.phase),
      ['queued', 'queued'],
    );
    assert.deepEqual(run.panels.map(updateRequests), [0, 0]);
    assert.equal(await run.core.getUpgradeRun(), null);
  });

  test('a lost answer (the panel restarted while answering) and the panel back on a new version is an upgrade', async () => {
    const run = await fleet(2, (_, style) => ({ to: NEXT[style], answer: 'lost', awayMs: 10 }));
    const results = await run.core.upgradePanels(run.ids, { canary: 0, waveSize: 2 });
    assert.deepEqual(outcomes(results), ['upgraded', 'upgraded']);
    assert.deepEqual(run.panels.map(updateRequests), [1, 1]);
  });

  test('back on the version it had: failed, the update did not take', async () => {
    const run = await fleet(2, (_, style) => ({ to: NEXT[style], sameVersion: true, awayMs: 10 }));
    const results = await run.core.upgradePanels(run.ids, { canary: 1, waveSize: 5 });
    assert.deepEqual(outcomes(results), ['failed', 'skipped']);
    assert.match(results[0]!.message ?? '', /still runs Easypanel 2\.28\.1/);
  });

  test('left out of the plan and said why: up to date, pinned to a release tag; nothing sent to them', async () => {
    const run = await fleet(3, (_, style) => ({ to: NEXT[style], awayMs: 10 }), {
      panel: (index) => (index === 1 ? { updateAvailable: false } : index === 2 ? { releaseTag: '2.33.4' } : {}),
    });
    const results = await run.core.upgradePanels(run.ids, { canary: 1, waveSize: 5 });
    assert.deepEqual(outcomes(results), ['upgraded', 'skipped', 'skipped']);
    assert.match(results[1]!.message ?? '', /already on the newest Easypanel \(2\.32\.2\)/);
    assert.match(results[2]!.message ?? '', /pinned to the release tag 2\.33\.4/);
    assert.equal(run.plans[0]!.panels.length, 1);
    assert.equal(run.plans[0]!.leftOut.length, 2);
    assert.deepEqual(run.panels.map(updateRequests), [1, 0, 0]);
  });

  test('no yes, nothing sent; a production panel asks for its name; a panel signed out after the yes gets nothing', async () => {
    let answer = false;
    const asked: WritePlan[] = [];
    const run = await fleet(2, (_, style) => ({ to: NEXT[style], awayMs: 10 }), {
      core: {
        confirmWrite: async (plan) => {
          asked.push(plan);
          if (answer) await run.core.logOut(run.ids[0]!);
          return answer;
        },
      },
    });
    await run.core.updatePanel(run.ids[1]!, { colour: 'red' });
    await rejectsWith(run.core.upgradePanels(run.ids, { canary: 1, waveSize: 1 }), 'NOT_CONFIRMED');
    assert.deepEqual(run.panels.map(updateRequests), [0, 0]);
    assert.equal(asked[0]?.typedConfirmation?.text, 'Panel 1', 'the production panel is confirmed by typing its name');
    answer = true;
    const results = await run.core.upgradePanels(run.ids, { canary: 1, waveSize: 1 });
    assert.deepEqual(outcomes(results), ['failed', 'skipped']);
    assert.match(results[0]!.message ?? '', /Not sent: Panel 0 was signed out after you confirmed/);
    assert.deepEqual(run.panels.map(updateRequests), [0, 0]);
  });

  test('a second run while one is under way is refused; bad options are refused before anything is read', async () => {
    const run = await fleet(1, (_, style) => ({ to: NEXT[style], awayMs: 'held' }));
    const first = run.core.upgradePanels(run.ids, { canary: 1, waveSize: 1 });
    await run.panels[0]!.nextRestart('away');
    await rejectsWith(run.core.upgradePanels(run.ids, { canary: 1, waveSize: 1 }), 'INVALID_INPUT', /already upgrading/);
    run.panels[0]!.finishRestart();
    assert.deepEqual(outcomes(await first), ['upgraded']);
    await rejectsWith(run.core.upgradePanels(run.ids, { canary: 1, waveSize: 0 }), 'INVALID_INPUT');
    await rejectsWith(run.core.upgradePanels([run.ids[0]!, run.ids[0]!], { canary: 1, waveSize: 1 }), 'INVALID_INPUT', /once/);
  });
});
