/**
 * Upgrading Easypanel on many panels in waves (`upgradePanels`): the first `canary` panels alone,
 * then waves of at most `waveSize`; each panel's update sent once, then waited for until the panel
 * is back on a new version; the run stops at the first failure or at a panel not back in time.
 */

/** How a run is cut into waves, as the operator chose it. */
export interface UpgradeOptions {
  /** The panels upgraded first, alone, before any wave (0: none). */
  canary: number;
  /** The most panels upgraded at once after the canary. */
  waveSize: number;
}

export const UPGRADE_CANARY_MAX = 20;
export const UPGRADE_WAVE_MAX = 20;
/** The most panels one run takes: a fleet's worth. */
export const UPGRADE_PANELS_MAX = 10_000;
/** What the window offers unless the operator says otherwise. */
export const DEFAULT_UPGRADE_OPTIONS: Readonly<UpgradeOptions> = Object.freeze({ canary: 1, waveSize: 5 });

/**
 * What came of one panel: `upgraded` (back on a new version), `failed` (the panel refused the
 * update, or came back on the version it had), `unknown` (the update was sent and the panel was
 * not back in time, or the run was cancelled while waiting for it: look at the panel), `skipped`
 * (left out of the plan, or not started because the run stopped), `cancelled` (never sent: the
 * operator cancelled first).
 */
export type UpgradeOutcome = 'upgraded' | 'failed' | 'unknown' | 'skipped' | 'cancelled';

export interface PanelUpgradeResult {
  panelId: string;
  outcome: UpgradeOutcome;
  /** The version read for the plan; null when the panel named none. */
  versionBefore: string | null;
  /** The version the panel came back with; null when it did not come back (or was not sent to). */
  versionAfter: string | null;
  /** What happened, in the operator's words; null when it went as planned. */
  message: string | null;
}

/** How far one panel of a run has gone, as the window is told (`upgradeChanged`). */
export type UpgradePhase = 'queued' | 'sent' | 'waiting' | UpgradeOutcome;

/** The run of `upgradePanels` under way (`getUpgradeRun`): what a window loaded meanwhile takes up. */
export interface UpgradeRun {
  /** The panels asked for, in the order asked. */
  panelIds: string[];
  options: UpgradeOptions;
  /** Each panel's step as main last told it (`upgradeChanged`). */
  steps: { panelId: string; phase: UpgradePhase; message: string | null }[];
  /** Cancel was asked: nothing more starts. */
  cancelling: boolean;
}

export const UPGRADE_PHASES: readonly UpgradePhase[] = [
  'queued',
  'sent',
  'waiting',
  'upgraded',
  'failed',
  'unknown',
  'skipped',
  'cancelled',
];

export function isUpgradePhase(value: unknown): value is UpgradePhase {
  return typeof value === 'string' && (UPGRADE_PHASES as readonly string[]).includes(value);
}

/** Whether the phase is an end: nothing more happens to that panel in this run. */
export function isUpgradeEnd(phase: UpgradePhase): phase is UpgradeOutcome {
  return phase !== 'queued' && phase !== 'sent' && phase !== 'waiting';
}

/** The panels of a run cut into waves: the canary first (when any), then waves of at most `waveSize`. */
export function upgradeWaves<T>(items: readonly T[], { canary, waveSize }: UpgradeOptions): T[][] {
  const waves: T[][] = [];
  const first = Math.max(0, Math.min(canary, items.length));
  if (first > 0) waves.push(items.slice(0, first));
  const size = Math.max(1, waveSize);
  for (let start = first; start < items.length; start += size) waves.push(items.slice(start, start + size));
  return waves;
}
