import { plural } from '../../shared/counts.ts';
import { isUpgradeEnd, type PanelUpgradeResult, type UpgradeOptions, type UpgradePhase, upgradeWaves } from '../../shared/upgrades.ts';
import type { Panel } from '../../shared/types.ts';

/**
 * What the upgrade dialog shows of each panel, worked out from the panels and main's steps: the
 * wave it is in, where it stands, and the counts of the run. Pure, so the words are tested alone.
 */

/** Each phase as a row says it. */
export const UPGRADE_PHASE_WORDS: Readonly<Record<UpgradePhase, string>> = {
  queued: 'Waiting its turn',
  sent: 'Update sent',
  waiting: 'Restarting: waiting for it to come back',
  upgraded: 'Upgraded',
  failed: 'Failed',
  unknown: 'Unknown: look at the panel',
  skipped: 'Skipped',
  cancelled: 'Cancelled (not sent)',
};

export interface UpgradeRow {
  panelId: string;
  name: string;
  /** "first, alone", "wave 2"; null for a panel main will leave out (not signed in, no update). */
  wave: string | null;
  version: string;
  phase: UpgradePhase;
  message: string | null;
}

/** The panels the run is offered for: signed in, and not said to be up to date. */
export function upgradeTargets(panels: readonly Panel[]): Panel[] {
  return panels.filter((panel) => panel.signedIn && panel.updateAvailable !== false);
}

/**
 * The rows, in the run's order, with the wave each panel will be in when every one of them is
 * planned (main's plan says the final cut: a panel it leaves out moves the others up).
 */
export function upgradeRows(
  panels: readonly Panel[],
  options: UpgradeOptions,
  steps: ReadonlyMap<string, { phase: UpgradePhase; message: string | null }>,
  results: readonly PanelUpgradeResult[] | null,
): UpgradeRow[] {
  const waves = upgradeWaves(panels, options);
  const waveOf = new Map<string, string>();
  const canary = options.canary > 0;
  waves.forEach((wave, index) => {
    for (const panel of wave) waveOf.set(panel.id, canary && index === 0 ? 'first, alone' : `wave ${canary ? index : index + 1}`);
  });
  const byId = new Map(results?.map((result) => [result.panelId, result]));
  return panels.map((panel) => {
    const result = byId.get(panel.id);
    const step = steps.get(panel.id);
    const version = result?.versionAfter ? `${result.versionBefore ?? '?'} → ${result.versionAfter}` : (panel.panelVersion ?? 'not named');
    return {
      panelId: panel.id,
      name: panel.name,
      wave: waveOf.get(panel.id) ?? null,
      version,
      phase: result?.outcome ?? step?.phase ?? 'queued',
      message: result?.message ?? step?.message ?? null,
    };
  });
}

/** "12 upgraded, 1 failed, 27 skipped": the ends so far, in a fixed order. */
export function upgradeCounts(rows: readonly Pick<UpgradeRow, 'phase'>[]): string {
  const order: UpgradePhase[] = ['upgraded', 'failed', 'unknown', 'skipped', 'cancelled'];
  const counted = order.flatMap((phase) => {
    const n = rows.filter((row) => row.phase === phase).length;
    return n > 0 ? [`${n} ${phase}`] : [];
  });
  const underWay = rows.filter((row) => !isUpgradeEnd(row.phase) && row.phase !== 'queued').length;
  if (underWay > 0) counted.unshift(`${plural(underWay, 'panel')} under way`);
  return counted.join(', ');
}
