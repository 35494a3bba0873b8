import type { PanelHealth } from '../../shared/fleet-state.ts';
import type { Panel } from '../../shared/types.ts';
import type { PanelFacts } from './panel-search.ts';
import { isSessionLost, signedOutNotice } from '../ui/panel-status.ts';

/**
 * Why a panel needs the operator, from facts only: it does not answer, its session ended, a log
 * in failed, services are down, its disk is nearly full. A panel signed out on purpose, or never
 * logged in, needs nothing; a muted panel keeps its reason but leaves "Needs attention". Pure.
 */

/** A disk fuller than this (percent) needs attention. */
export const DISK_FULL_PERCENT = 90;

/** The facts, worst first: a smaller severity sorts first; `none` is the healthy rest. */
export const SEVERITY = { unreachable: 0, expired: 1, loginFailed: 2, servicesDown: 3, diskFull: 4, checkFailed: 5, none: 9 } as const;
export type Severity = (typeof SEVERITY)[keyof typeof SEVERITY];

/** The state cell: colour and shape say it without words, the word says it without colour. */
export type StateTone = 'red' | 'amber' | 'green' | 'grey';

export interface PanelAttention {
  /** The worst fact, or `SEVERITY.none`. */
  severity: Severity;
  /** Every fact found, worst first, as one line ("Unreachable: connection refused · disk 93% full"); null when all is well. */
  reason: string | null;
  /** Whether the panel is in "Needs attention": a fact, and not muted. */
  attention: boolean;
  tone: StateTone;
  /** The state in one word: "Down", "Expired", "Failing", "Degraded", "OK", "Signed out", "New". */
  word: string;
}

const NETWORK_CODES: ReadonlySet<string> = new Set(['NETWORK', 'TIMEOUT', 'TLS']);
const EXPIRED_CODES: ReadonlySet<string> = new Set(['UNAUTHORIZED', 'TOKEN_UNREADABLE']);

/** A percentage of `used` in `total`, or null when either is unknown. */
export function percentOf(used: number | null, total: number | null): number | null {
  if (used === null || total === null || total <= 0) return null;
  return Math.round((used / total) * 100);
}

export function diskPercent(health: PanelHealth | undefined): number | null {
  return health ? percentOf(health.disk.usedGb, health.disk.totalGb) : null;
}

export function memoryPercent(health: PanelHealth | undefined): number | null {
  return health ? percentOf(health.memory.usedMb, health.memory.totalMb) : null;
}

/** What the search's fact terms (`down`, `disk>90`, `version:2.30`) test of a panel. */
export function panelFacts(panel: Panel, health: PanelHealth | undefined): PanelFacts {
  return {
    servicesDown: health?.servicesDown ?? null,
    diskPercent: diskPercent(health),
    memoryPercent: memoryPercent(health),
    cpuPercent: health?.cpuPercent ?? null,
    version: panel.panelVersion ?? health?.version ?? null,
  };
}

/** A panel's message shortened to one cell's worth. */
function short(message: string): string {
  const line = message.split('\n', 1)[0]!.trim();
  return line.length > 140 ? `${line.slice(0, 139)}…` : line;
}

/** What is wrong with `panel` (and its last state read), worst first. */
export function panelAttention(panel: Panel, health: PanelHealth | undefined): PanelAttention {
  const facts: { severity: Severity; text: string }[] = [];
  const check = panel.lastCheck;
  if (panel.signedIn && check && !check.ok) {
    const unreachable = NETWORK_CODES.has(check.error.code);
    facts.push({
      severity: unreachable ? SEVERITY.unreachable : SEVERITY.checkFailed,
      text: `${unreachable ? 'Unreachable' : 'Check failed'}: ${short(check.error.message)}`,
    });
  }
  if (isSessionLost(panel)) facts.push({ severity: SEVERITY.expired, text: `Session expired: ${short(panel.signedOutReason!.message)}` });
  else if (!panel.signedIn && panel.signedOutReason && !EXPIRED_CODES.has(panel.signedOutReason.code)) {
    const notice = signedOutNotice(panel);
    // Logged out while the API token stays valid is the operator's choice, not a failure.
    if (notice && !notice.title.startsWith('Logged out'))
      facts.push({ severity: SEVERITY.loginFailed, text: `${notice.title}: ${short(notice.detail)}` });
  }
  if (panel.signedIn && health) {
    const down = health.servicesDown ?? 0;
    if (down > 0) facts.push({ severity: SEVERITY.servicesDown, text: `${down} ${down === 1 ? 'service' : 'services'} down` });
    const disk = diskPercent(health);
    if (disk !== null && disk > DISK_FULL_PERCENT) facts.push({ severity: SEVERITY.diskFull, text: `Disk ${disk}% full` });
  }
  facts.sort((a, b) => a.severity - b.severity);
  const severity = facts[0]?.severity ?? SEVERITY.none;
  // A state that could not be read is said, but is no fact about the panel's health.
  const problem = panel.signedIn && health?.problem ? `State not read: ${short(health.problem.message)}` : null;
  const texts = facts.map((fact) => fact.text);
  if (problem) texts.push(problem);
  return {
    severity,
    reason: texts.length > 0 ? texts.join(' · ') : null,
    attention: severity !== SEVERITY.none && !panel.muted,
    ...stateOf(panel, severity),
  };
}

/** The state cell of a panel whose worst fact is `severity`. */
function stateOf(panel: Panel, severity: Severity): { tone: StateTone; word: string } {
  switch (severity) {
    case SEVERITY.unreachable:
      return { tone: 'red', word: 'Down' };
    case SEVERITY.expired:
      return { tone: 'red', word: 'Expired' };
    case SEVERITY.loginFailed:
      return { tone: 'red', word: 'Failed' };
    case SEVERITY.servicesDown:
    case SEVERITY.diskFull:
      return { tone: 'amber', word: 'Degraded' };
    case SEVERITY.checkFailed:
      return { tone: 'amber', word: 'Failing' };
    default:
      if (panel.signedIn) return { tone: 'green', word: 'OK' };
      // Never logged in is told apart from logged out: one was never tried.
      return { tone: 'grey', word: panel.lastEmail === null && panel.lastCheck === null ? 'New' : 'Signed out' };
  }
}
