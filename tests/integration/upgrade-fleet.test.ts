import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { upgradeTargets } from '../../renderer/upgrades/upgrade-rows.ts';
import { NEXT, outcomes, type UpgradeFleet, updateRequests, upgradeFleetPerTest } from '../support/upgrade-fleet.ts';

/**
 * Issue 32's "done when" for the upgrade run: 200 signed-in reference panels of three generations,
 * 40 of them with an update available (every fifth: all three generations among them), upgraded
 * in waves (canary 1, waves of 5) from one confirmation; one made to fail (the 7th, in wave 2)
 * stops the run, the rest skipped. What the run did is counted at the servers (each panel's
 * update requests, its going away and coming back in order), never timed.
 */

const PANELS = 200;
const WAVE = 5;
const OPTIONS = { canary: 1, waveSize: WAVE };
const withUpdate = (index: number) => index % 5 === 0;

const fleet = upgradeFleetPerTest();

/** The fleet, `failing` (an index into the 40) refusing its update; the 40 in the run's order. */
async function fleetOf200(failing: number | null): Promise<{ run: UpgradeFleet; targets: number[] }> {
  const targets = Array.from({ length: PANELS }, (_, index) => index).filter(withUpdate);
  const run = await fleet(
    PANELS,
    (index, style) =>
      withUpdate(index)
        ? { to: NEXT[style], awayMs: 20, ...(index === targets[failing ?? -1] ? { answer: 'refuse' as const } : {}) }
        : null,
    { panel: (index) => ({ updateAvailable: withUpdate(index) }) },
  );
  return { run, targets };
}

/** The 40 cut as the test expects: the first alone, then waves of 5 (written out, not upgradeWaves). */
function expectedWaves(targets: readonly number[]): number[][] {
  const waves = [targets.slice(0, 1)];
  for (let start = 1; start < targets.length; start += WAVE) waves.push(targets.slice(start, start + WAVE));
  return waves;
}

/** The most panels away at once, from the servers' going away and coming back in order. */
function mostAwayAtOnce(run: UpgradeFleet): number {
  let away = 0;
  let most = 0;
  for (const one of run.seen) {
    away += one.what === 'away' ? 1 : -1;
    most = Math.max(most, away);
  }
  return most;
}

describe('upgrading 40 of 200 panels in waves (issue 32)', () => {
  test('the 40 the window offers are upgraded from one confirmation: the canary alone, then waves of at most 5, each update once', async () => {
    const { run, targets } = await fleetOf200(null);
    // The window offers the panels not said to be up to date: a check of the fleet read which.
    await run.core.checkPanels();
    const listed = await run.core.listPanels();
    const offered = upgradeTargets(listed).map((panel) => panel.id);
    assert.deepEqual(
      offered,
      targets.map((index) => run.ids[index]),
    );

    const results = await run.core.upgradePanels(offered, OPTIONS);
    assert.deepEqual(outcomes(results), Array(targets.length).fill('upgraded'));
    assert.equal(run.plans.length, 1, 'one plan, one confirmation');
    assert.equal(run.plans[0]!.panels.length, targets.length);
    assert.equal(run.plans[0]!.leftOut.length, 0);

    // Each of the 40 received its update once; the 160 others nothing.
    for (const [index, panel] of run.panels.entries()) assert.equal(updateRequests(panel), withUpdate(index) ? 1 : 0, `panel ${index}`);
    // The canary alone before anything else; each wave away only after the wave before is all back.
    const position = (what: 'away' | 'back', panel: number) => run.seen.findIndex((one) => one.what === what && one.panel === panel);
    const waves = expectedWaves(targets);
    assert.equal(waves.length, 9);
    assert.deepEqual(run.seen.slice(0, 2), [
      { what: 'away', panel: targets[0] },
      { what: 'back', panel: targets[0] },
    ]);
    for (let wave = 1; wave < waves.length; wave++) {
      const lastBack = Math.max(...waves[wave - 1]!.map((panel) => position('back', panel)));
      for (const panel of waves[wave]!)
        assert.ok(position('away', panel) > lastBack, `panel ${panel} went away before wave ${wave - 1} was all back`);
    }
    assert.equal(mostAwayAtOnce(run), WAVE, 'never more than a wave restarting at once');
    assert.equal(run.seen.length, 2 * targets.length, 'each of the 40 away once and back once');

    // Back on the new version, as the core reads it and as the servers say.
    for (const [position, result] of results.entries()) {
      const index = targets[position]!;
      const style = (['trpc', 'rpc', 'public'] as const)[index % 3]!;
      assert.equal(result.versionAfter, NEXT[style], `panel ${index}`);
      assert.equal(run.panels[index]!.version(), NEXT[style]);
    }
    const after = new Map((await run.core.listPanels()).map((panel) => [panel.id, panel]));
    assert.ok(
      targets.every((index) => after.get(run.ids[index]!)?.updateAvailable === false),
      'each read again after its upgrade: none out',
    );
    assert.equal(upgradeTargets([...after.values()]).length, 0, 'nothing left to offer');
  });

  test('the 7th (in wave 2) refuses its update: its wave finishes, the run stops, the 29 after it are skipped and sent nothing', async () => {
    const failing = 6;
    const { run, targets } = await fleetOf200(failing);
    const results = await run.core.upgradePanels(
      targets.map((index) => run.ids[index]!),
      OPTIONS,
    );
    // The canary, wave 1 (positions 1-5) and the rest of wave 2 (7-10) upgraded; 11-39 never started.
    const expected = targets.map((_, position) => (position === failing ? 'failed' : position <= 10 ? 'upgraded' : 'skipped'));
    assert.deepEqual(outcomes(results), expected);
    assert.equal(run.plans.length, 1);
    assert.match(results[failing]!.message ?? '', /could not be pulled/);
    for (const result of results.slice(11)) assert.match(result.message ?? '', /Not started: the run stopped at Panel 30 \(failed\)/);
    for (const [position, index] of targets.entries())
      assert.equal(updateRequests(run.panels[index]!), position <= 10 ? 1 : 0, `panel ${index} (position ${position})`);
    for (const [position, index] of targets.entries())
      assert.equal(run.panels[index]!.restarts(), position <= 10 && position !== failing ? 1 : 0, `panel ${index} restarts`);
    const { entries } = await run.core.listActivity();
    const upgrades = entries.filter((entry) => entry.what.action === 'upgrade');
    assert.equal(upgrades.length, 11, 'only what was sent is in the activity log');
    assert.equal(upgrades.filter((entry) => entry.outcome === 'failed').length, 1);
  });
});
