import { agoText, MINUTE_MS } from '../../shared/durations.ts';
import type { PanelHealth } from '../../shared/fleet-state.ts';
import type { Panel } from '../../shared/types.ts';
import { isSessionLost, signedOutNotice } from './panel-status.ts';

/**
 * A panel's state in one word, worked out from facts only (its sign-in, its last check, what the
 * check read of its state), and the one table of those words: the panel list's list and table
 * layouts, the panel's header and the counts all say a state by `PANEL_STATES`, so one state never
 * has two names (docs/glossary.md). Unknown is never OK: a state that could not be read or
 * understood is "State unknown" and needs attention. Pure.
 */

export type PanelState = 'unreachable' | 'expired' | 'degraded' | 'unknown' | 'ok' | 'signed-in' | 'signed-out' | 'new';

/** The state's colour: with a shape and the word, so that neither colour nor shape alone carries it. */
export type StateTone = 'red' | 'amber' | 'green' | 'grey';

/** Every state's word and tone, worst first (the order the counts show them in). */
export const PANEL_STATES: Readonly<Record<PanelState, { word: string; tone: StateTone }>> = {
  unreachable: { word: 'Unreachable', tone: 'red' },
  expired: { word: 'Expired', tone: 'red' },
  degraded: { word: 'Degraded', tone: 'amber' },
  unknown: { word: 'State unknown', tone: 'amber' },
  ok: { word: 'OK', tone: 'green' },
  'signed-in': { word: 'Signed in', tone: 'grey' },
  'signed-out': { word: 'Signed out', tone: 'grey' },
  new: { word: 'New', tone: 'grey' },
};

export const PANEL_STATE_ORDER = Object.keys(PANEL_STATES) as readonly PanelState[];

/** The facts, worst first: a smaller severity sorts first; `none` is the rest (OK, or nothing to attend to). */
export const SEVERITY = { unreachable: 0, expired: 1, loginFailed: 2, servicesDown: 3, diskFull: 4, stateUnknown: 5, none: 9 } as const;
export type Severity = (typeof SEVERITY)[keyof typeof SEVERITY];

/** A disk fuller than this (percent) needs attention. */
export const DISK_FULL_PERCENT = 90;

const NETWORK_CODES: ReadonlySet<string> = new Set(['NETWORK', 'TIMEOUT', 'TLS', 'CERTIFICATE_CHANGED']);
const EXPIRED_CODES: ReadonlySet<string> = new Set(['UNAUTHORIZED', 'TOKEN_UNREADABLE']);

export interface PanelJudgement {
  state: PanelState;
  /** The worst fact, or `SEVERITY.none`. */
  severity: Severity;
  /** Every fact found, worst first, as one line ("Unreachable: connection refused · Disk 93% full"); null when all is well. */
  reason: string | null;
  /** The same facts as short phrases, for a narrow cell ("Unreachable · Disk 93% full"); null when all is well. */
  shortReason: string | null;
  /** Whether the panel is in "Needs attention": a fact, and not muted. */
  attention: boolean;
  tone: StateTone;
  /** `PANEL_STATES[state].word`. */
  word: string;
}

/** A percentage of `used` in `total`, or null when either is unknown. */
export function percentOf(used: number | null, total: number | null): number | null {
  if (used === null || total === null || total <= 0) return null;
  return Math.round((used / total) * 100);
}

export function diskPercent(health: PanelHealth | undefined): number | null {
  return health ? percentOf(health.disk.usedGb, health.disk.totalGb) : null;
}

/** A panel's message shortened to one cell's worth. */
export function shortMessage(message: string): string {
  const line = message.split('\n', 1)[0]!.trim();
  return line.length > 140 ? `${line.slice(0, 139)}…` : line;
}

/**
 * The services down in words: "web, api +3 down" (`short`, for a narrow line: the first two
 * service names, then how many more), else "2 services down: shop/web, shop/api" (up to `names` of
 * them, "…" past); the count alone when the check could not name them. Null when none is down or
 * it is not known.
 */
export function servicesDownText(health: PanelHealth | undefined, form: 'short' | 'long', names = 3): string | null {
  const down = health?.servicesDown ?? null;
  if (down === null || down === 0) return null;
  const count = `${down} ${down === 1 ? 'service' : 'services'} down`;
  const named = health?.downServices ?? null;
  if (named === null || named.length === 0) return count;
  if (form === 'short') {
    // Two names fit a row's line; the rest (named or not) are counted, so the row still says how many.
    const shown = named.slice(0, 2).map((name) => name.slice(name.indexOf('/') + 1));
    const more = down - shown.length;
    return `${shown.join(', ')}${more > 0 ? ` +${more}` : ''} down`;
  }
  const more = down > Math.min(names, named.length) ? ', …' : '';
  return `${count}: ${named.slice(0, names).join(', ')}${more}`;
}

/**
 * When the figures shown were read, if they are older than what the panel is known to be now: its
 * last check failed after them, its last state read failed whole, or it is no longer signed in.
 * Null when they are the last check's own (or there are none).
 */
export function staleSince(panel: Panel, health: PanelHealth | undefined): string | null {
  if (!health) return null;
  const readAt = Date.parse(health.readAt);
  const check = panel.lastCheck;
  const checkFailedSince = check !== null && !check.ok && Date.parse(check.at) >= readAt;
  const readFailedSince = health.problem !== null && Date.parse(health.problem.at) > readAt;
  return !panel.signedIn || checkFailedSince || readFailedSince ? health.readAt : null;
}

/** "as of 3 h ago": how figures read before the last check are marked. */
export function asOfText(readAt: string, now: number): string {
  return `as of ${agoText(Date.parse(readAt), now)}`;
}

/**
 * `staleSince` said as its age ("as of 3 h ago"), or null when the figures are the last check's
 * own, or read within the minute (what "as of just now" would say is nothing to mark).
 */
export function staleAge(panel: Panel, health: PanelHealth | undefined, now: number): string | null {
  const since = staleSince(panel, health);
  return since === null || now - Date.parse(since) < MINUTE_MS ? null : asOfText(since, now);
}

/** Whether the check read and understood the panel's state: its services down are known, and nothing failed. */
function stateUnderstood(health: PanelHealth): boolean {
  return health.servicesDown !== null && health.problem === null;
}

/** Signed in, and its last check got no answer (or none to trust): a read now would most likely fail the same way. */
export function isUnreachable(panel: Pick<Panel, 'signedIn' | 'lastCheck'>): boolean {
  const check = panel.lastCheck;
  return panel.signedIn && check !== null && !check.ok && NETWORK_CODES.has(check.error.code);
}

/** What is wrong with `panel` (and its last state read), worst first, and its state in one word. */
export function judgePanel(panel: Panel, health: PanelHealth | undefined): PanelJudgement {
  // Each fact in full (`text`) and as a short phrase (`short`, the part before its colon).
  const facts: { severity: Severity; text: string; short: string }[] = [];
  const check = panel.lastCheck;
  const checkFailed = panel.signedIn && check !== null && !check.ok;
  if (checkFailed) {
    const unreachable = isUnreachable(panel);
    facts.push({
      severity: unreachable ? SEVERITY.unreachable : SEVERITY.stateUnknown,
      text: `${unreachable ? 'Unreachable' : 'Check failed'}: ${shortMessage(check.error.message)}`,
      short: unreachable ? 'Unreachable' : 'Check failed',
    });
  }
  if (isSessionLost(panel))
    facts.push({
      severity: SEVERITY.expired,
      text: `Session expired: ${shortMessage(panel.signedOutReason!.message)}`,
      short: 'Session expired',
    });
  else if (!panel.signedIn && panel.signedOutReason && !EXPIRED_CODES.has(panel.signedOutReason.code)) {
    const notice = signedOutNotice(panel);
    // Logged out while the API token stays valid is the operator's choice, not a failure.
    if (notice && !notice.title.startsWith('Logged out'))
      facts.push({ severity: SEVERITY.loginFailed, text: `${notice.title}: ${shortMessage(notice.detail)}`, short: notice.title });
  }
  let offered = false;
  if (panel.signedIn && health) {
    const down = servicesDownText(health, 'long');
    if (down) facts.push({ severity: SEVERITY.servicesDown, text: down, short: servicesDownText(health, 'short') ?? down });
    const disk = diskPercent(health);
    if (disk !== null && disk > DISK_FULL_PERCENT)
      facts.push({ severity: SEVERITY.diskFull, text: `Disk ${disk}% full`, short: `Disk ${disk}% full` });
    // A panel with no state routes offers no state: said, but nothing the operator can attend to.
    offered = health.problem?.routesMissing !== true;
    if (offered && !stateUnderstood(health)) {
      const why = health.problem ? shortMessage(health.problem.message) : 'the task stats were not read';
      facts.push({ severity: SEVERITY.stateUnknown, text: `State unknown: ${why}`, short: 'State unknown' });
    }
  }
  const routesMissing = panel.signedIn && health?.problem?.routesMissing === true;
  const read = offered && health !== undefined;
  // Most of a fleet is well: its judgement is made without the lists below (ten thousand at a start).
  if (facts.length === 0 && !routesMissing) return judgement(stateOf(panel, SEVERITY.none, read), SEVERITY.none, null, null, panel);
  facts.sort((a, b) => a.severity - b.severity);
  const severity = facts[0]?.severity ?? SEVERITY.none;
  const texts = facts.map((fact) => fact.text);
  const shorts = facts.map((fact) => fact.short);
  if (routesMissing) {
    texts.push(`No state to read: ${shortMessage(health!.problem!.message)}`);
    shorts.push('No state to read');
  }
  return judgement(stateOf(panel, severity, read), severity, texts.join(' · '), shorts.join(' · '), panel);
}

function judgement(state: PanelState, severity: Severity, reason: string | null, shortReason: string | null, panel: Panel): PanelJudgement {
  const { word, tone } = PANEL_STATES[state];
  return { state, severity, reason, shortReason, attention: severity !== SEVERITY.none && !panel.muted, tone, word };
}

/** The state of a panel whose worst fact is `severity`; `read`: its state was read (an OK needs one). */
function stateOf(panel: Panel, severity: Severity, read: boolean): PanelState {
  switch (severity) {
    case SEVERITY.unreachable:
      return 'unreachable';
    case SEVERITY.expired:
      return 'expired';
    case SEVERITY.loginFailed:
      return 'signed-out';
    case SEVERITY.servicesDown:
    case SEVERITY.diskFull:
      return 'degraded';
    case SEVERITY.stateUnknown:
      return 'unknown';
    default:
      // Signed in with no state read (yet, or ever: a panel with no state routes) is not OK: nothing is known.
      if (panel.signedIn) return read ? 'ok' : 'signed-in';
      // Never logged in is told apart from logged out: one was never tried.
      return panel.lastEmail === null && panel.lastCheck === null ? 'new' : 'signed-out';
  }
}
