import type { ErrorCode } from '../../../shared/contract/errors.ts';

/**
 * What an alert is judged on, for one panel after one check: pure data, so detection is a
 * function of the previous observation and the new one (no clock, no I/O).
 */
export interface PanelObservation {
  /** Whether the panel answered: false when the check failed with NETWORK, TIMEOUT or SERVER_ERROR; null when unknown (cancelled, never checked). */
  answered: boolean | null;
  /** The services down ("project/service"), sorted; null when the check could not tell which. */
  down: readonly string[] | null;
  /** Disk used in percent; null when the panel did not say. */
  diskPercent: number | null;
}

/** An alert before it gets an id, a time and its panel's name. */
export type DetectedAlert = { kind: 'serviceDown'; service: string } | { kind: 'diskFull'; percent: number } | { kind: 'unreachable' };

/** Check failures that mean the panel did not answer (as opposed to a refusal, or an answer read wrong). */
export const UNANSWERED: ReadonlySet<ErrorCode> = new Set<ErrorCode>(['NETWORK', 'TIMEOUT', 'SERVER_ERROR']);

export const UNKNOWN_OBSERVATION: Readonly<PanelObservation> = Object.freeze({ answered: null, down: null, diskPercent: null });

/**
 * The alerts a change raises, and the observation to compare the next one with. An unknown figure
 * keeps the last known one, so an unknown in between never makes a held condition look new. With
 * no previous observation (the first check of a run) nothing is raised: the state found at start
 * is the baseline, so a restart does not repeat the alerts of the last run.
 */
export function detectAlerts(
  previous: PanelObservation | undefined,
  next: PanelObservation,
  diskThresholdPercent: number,
): { alerts: DetectedAlert[]; kept: PanelObservation } {
  const base = previous ?? UNKNOWN_OBSERVATION;
  const kept: PanelObservation = {
    answered: next.answered ?? base.answered,
    down: next.down ?? base.down,
    diskPercent: next.diskPercent ?? base.diskPercent,
  };
  const alerts: DetectedAlert[] = [];
  if (!previous) return { alerts, kept };
  // A service newly down: down now and not down at the last known listing (none known: none raised).
  if (next.down !== null && base.down !== null) {
    const before = new Set(base.down);
    for (const service of next.down) if (!before.has(service)) alerts.push({ kind: 'serviceDown', service });
  }
  const over = (percent: number | null) => percent !== null && percent >= diskThresholdPercent;
  if (next.diskPercent !== null && base.diskPercent !== null && over(next.diskPercent) && !over(base.diskPercent))
    alerts.push({ kind: 'diskFull', percent: next.diskPercent });
  // Stopped answering after an answer: one that never answered since the start is not news.
  if (next.answered === false && base.answered === true) alerts.push({ kind: 'unreachable' });
  return { alerts, kept };
}

/** Disk used in percent, or null when either figure is missing or the total is zero. */
export function diskPercent(disk: { usedGb: number | null; totalGb: number | null }): number | null {
  const { usedGb, totalGb } = disk;
  if (usedGb === null || totalGb === null || totalGb <= 0) return null;
  return Math.min(100, Math.round((usedGb / totalGb) * 1000) / 10);
}
