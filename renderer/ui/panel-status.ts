import { untilText } from '../../shared/durations.ts';
import { API_TOKEN_KEPT_MESSAGE } from '../../shared/contract/errors.ts';
import type { Panel } from '../../shared/types.ts';

/** Where a panel stands by its sign-in alone (the list's "Status" order): its state in words is ui/panel-state.ts's. */
export type SignInKind = 'signed-in' | 'check-failed' | 'expired' | 'signed-out';

/** A panel's sign-in: signed in (its last check worked or failed), expired, or signed out. */
export function signInKind(panel: Panel): SignInKind {
  if (panel.signedIn) return panel.lastCheck && !panel.lastCheck.ok ? 'check-failed' : 'signed-in';
  return isSessionLost(panel) ? 'expired' : 'signed-out';
}

/** Signed in with a long-lived API token: it has no end to show or warn about. */
export function isApiTokenSignIn(panel: Pick<Panel, 'signedIn' | 'tokenKind'>): boolean {
  return panel.signedIn && panel.tokenKind === 'api-token';
}

/** Signed out by the panel or by an unreadable saved token rather than by the operator. */
export function isSessionLost(panel: Panel): boolean {
  const code = panel.signedOutReason?.code;
  return !panel.signedIn && (code === 'UNAUTHORIZED' || code === 'TOKEN_UNREADABLE');
}

/**
 * Why a panel the operator did not log out of is signed out, as a headline for the login form;
 * the core's reason is the detail. `null` when the operator logged out or never logged in.
 */
export function signedOutNotice(panel: Panel): { title: string; detail: string } | null {
  const reason = panel.signedOutReason;
  if (panel.signedIn || !reason) return null;
  const titles: Partial<Record<string, string>> = {
    UNAUTHORIZED: 'Session expired or revoked',
    TOKEN_UNREADABLE: 'The saved sign-in could not be read',
    ENCRYPTION_UNAVAILABLE: 'The saved sign-in cannot be used on this system now',
  };
  if (reason.message === API_TOKEN_KEPT_MESSAGE) return { title: 'Logged out: the API token is still valid', detail: reason.message };
  // The core's reason ends with what to do ("Log in again."), so the title does not repeat it.
  return { title: titles[reason.code] ?? 'Signed out', detail: reason.message };
}

/**
 * The header's warning before a session ends: "Session ends in 9 min", counted as every duration
 * is (shared/durations.ts); null once it has ended (main's recheck then signs the panel out).
 * `lastKnown` after a failed check: "Last known: session ends in 9 min", as the list says it.
 */
export function sessionEndsText(expiresAt: string, now: number, lastKnown = false): string | null {
  const end = Date.parse(expiresAt);
  if (!Number.isFinite(end) || end <= now) return null;
  return `${lastKnown ? 'Last known: session ends' : 'Session ends'} ${untilText(end, now)}`;
}

/** Signed in, but the last check failed: what the panel said of its session may no longer hold. */
export function lastCheckFailed(panel: Pick<Panel, 'signedIn' | 'lastCheck'>): boolean {
  return panel.signedIn && panel.lastCheck !== null && !panel.lastCheck.ok;
}
