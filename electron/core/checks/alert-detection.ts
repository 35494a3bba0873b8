import type { AlertKind } from '../../../shared/alerts.ts';
import type { ErrorCode } from '../../../shared/contract/errors.ts';
import type { PanelAnswer, PanelObservation } from '../storage/alert-list.ts';

export type { PanelAnswer, PanelObservation };

/** An alert before it gets an id, a time and its panel's name. */
export type DetectedAlert =
  | { kind: 'serviceDown'; service: string }
  | { kind: 'diskFull'; percent: number }
  | { kind: 'unreachable' }
  | { kind: 'certificateChanged' }
  | { kind: 'badAnswer' };

/** A condition an alert is about, on one panel: at most one unresolved alert holds each. */
export interface AlertCondition {
  kind: AlertKind;
  /** The service of a `serviceDown`; null for the other kinds, and for a service alert kept without its name. */
  service: string | null;
}

/** How each failed check reads as an answer; a code not named here tells nothing about the answer. */
const ANSWERS: Partial<Record<ErrorCode, PanelAnswer>> = {
  NETWORK: 'none',
  TIMEOUT: 'none',
  SERVER_ERROR: 'none',
  CERTIFICATE_CHANGED: 'certificateChanged',
  BAD_RESPONSE: 'badAnswer',
};

export function answerOf(check: { ok: true } | { ok: false; error: { code: ErrorCode } }): PanelAnswer | null {
  return check.ok ? 'proper' : (ANSWERS[check.error.code] ?? null);
}

export const UNKNOWN_OBSERVATION: Readonly<PanelObservation> = Object.freeze({ answer: null, down: null, diskPercent: null });

/** Whether the condition holds in the observation: true, false, or null when it cannot tell. */
function holds(condition: AlertCondition, seen: PanelObservation, threshold: number): boolean | null {
  switch (condition.kind) {
    case 'serviceDown':
      if (seen.down === null) return null;
      // A service alert kept without its name (an older file) holds while anything is down.
      return condition.service === null ? seen.down.length > 0 : seen.down.includes(condition.service);
    case 'diskFull':
      return seen.diskPercent === null ? null : seen.diskPercent >= threshold;
    case 'unreachable':
      return seen.answer === null ? null : seen.answer === 'none';
    case 'certificateChanged':
    case 'badAnswer':
      // Only a proper answer clears them: a panel not answering tells nothing of its certificate or its pages.
      if (seen.answer === null) return null;
      return seen.answer === condition.kind ? true : seen.answer === 'proper' ? false : null;
    case 'sessionEnding':
    case 'upgradeNotBack':
    case 'backupFailed':
    case 'noBackup':
    case 'certificateExpiring':
    case 'certificateFailed':
      // The expiry watcher's warning, an upgrade run's, the backups and certificates reads': no check reading clears them.
      return null;
  }
}

/**
 * Whether the last observation knew the condition not to hold. A panel's answer is one of four, so
 * any other known answer counts: a panel that went from not answering to a changed certificate is news.
 */
function wasClear(condition: AlertCondition, base: PanelObservation, threshold: number): boolean {
  if (condition.kind === 'certificateChanged' || condition.kind === 'badAnswer')
    return base.answer !== null && base.answer !== condition.kind;
  return holds(condition, base, threshold) === false;
}

/** The conditions that hold in an observation, each once. */
function holding(seen: PanelObservation, threshold: number): DetectedAlert[] {
  const found: DetectedAlert[] = (seen.down ?? []).map((service) => ({ kind: 'serviceDown', service }));
  if (seen.diskPercent !== null && seen.diskPercent >= threshold) found.push({ kind: 'diskFull', percent: seen.diskPercent });
  if (seen.answer === 'none' || seen.answer === 'certificateChanged' || seen.answer === 'badAnswer')
    found.push({ kind: seen.answer === 'none' ? 'unreachable' : seen.answer });
  return found;
}

const conditionOf = (alert: DetectedAlert): AlertCondition => ({
  kind: alert.kind,
  service: alert.kind === 'serviceDown' ? alert.service : null,
});

export const sameCondition = (a: AlertCondition, b: AlertCondition): boolean => a.kind === b.kind && a.service === b.service;

/**
 * A check judged against the panel's last observation and its unresolved alerts:
 * - `raised`: each condition that holds now, was known not to hold before, and has no unresolved alert;
 * - `cleared`: each unresolved condition this observation knows to be gone (an unknown reading clears nothing);
 * - `kept`: the observation to compare the next one with; an unknown figure keeps the last known one, so
 *   an unknown in between never makes a held condition look new.
 * With no previous observation (a panel never observed) nothing is raised: what is found is the baseline.
 */
export function judgeCheck(
  previous: PanelObservation | undefined,
  next: PanelObservation,
  unresolved: readonly AlertCondition[],
  diskThresholdPercent: number,
): { raised: DetectedAlert[]; cleared: AlertCondition[]; kept: PanelObservation } {
  const base = previous ?? UNKNOWN_OBSERVATION;
  const kept: PanelObservation = {
    answer: next.answer ?? base.answer,
    down: next.down ?? base.down,
    diskPercent: next.diskPercent ?? base.diskPercent,
  };
  const cleared = unresolved.filter((condition) => holds(condition, next, diskThresholdPercent) === false);
  const stillOpen = unresolved.filter((condition) => !cleared.includes(condition));
  const raised = previous
    ? holding(next, diskThresholdPercent).filter((alert) => {
        const condition = conditionOf(alert);
        return wasClear(condition, base, diskThresholdPercent) && !stillOpen.some((open) => sameCondition(open, condition));
      })
    : [];
  return { raised, cleared, kept };
}

/**
 * Whether a session-ending alert raised at `alertAt` is over: a check found the session ending
 * later than any end it could have warned of (a new log in), or not ending at all (an API token).
 */
export function sessionRenewed(alertAt: string, sessionEndsAt: string | null, warningMinutes: number): boolean {
  return sessionEndsAt === null || Date.parse(sessionEndsAt) > Date.parse(alertAt) + warningMinutes * 60_000;
}

/** Disk used in percent, or null when either figure is missing or the total is zero. */
export function diskPercent(disk: { usedGb: number | null; totalGb: number | null }): number | null {
  const { usedGb, totalGb } = disk;
  if (usedGb === null || totalGb === null || totalGb <= 0) return null;
  return Math.min(100, Math.round((usedGb / totalGb) * 1000) / 10);
}
