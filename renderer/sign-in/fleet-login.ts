import { plural } from '../../shared/counts.ts';
import { CODE_REFUSED_MESSAGE, type ErrorInfo } from '../../shared/contract/errors.ts';
import {
  FLEET_OUTCOMES,
  OUTCOME_WORDS,
  TO_FINISH,
  countOutcomes,
  outcomeOfError,
  type FleetLogInResult,
} from '../../shared/fleet-login.ts';
import type { Panel } from '../../shared/types.ts';
import { isUnencrypted } from '../../shared/plain-http.ts';
import { madeOnce } from '../../shared/made-once.ts';

/**
 * The email the form starts with: the panels' own when they all agree, else the default from
 * Preferences, else the one the fleet used most (so the email typed for most panels is offered for
 * the rest, as imported panels have none of their own).
 */
export function sharedEmail(
  panels: readonly Pick<Panel, 'lastEmail'>[],
  defaultEmail: string | null,
  fleet: readonly Pick<Panel, 'lastEmail'>[] = [],
): string {
  const emails = new Set(panels.flatMap((panel) => (panel.lastEmail ? [panel.lastEmail] : [])));
  if (emails.size === 1) return [...emails][0]!;
  return defaultEmail ?? fleetEmail(fleet) ?? '';
}

/** The email most of the fleet's panels last logged in with (a tie: the first seen); null when none has one. */
export function fleetEmail(fleet: readonly Pick<Panel, 'lastEmail'>[]): string | null {
  return fleetEmails(fleet)[0] ?? null;
}

/** The emails the fleet's panels last logged in with, most used first, ties in the order seen (offered as the email is typed); at most 20. */
export function fleetEmails(fleet: readonly Pick<Panel, 'lastEmail'>[]): string[] {
  const counts = new Map<string, number>();
  for (const { lastEmail } of fleet) if (lastEmail) counts.set(lastEmail, (counts.get(lastEmail) ?? 0) + 1);
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 20)
    .map(([email]) => email);
}

/** The targets of a log in by group (a client's panels share their credentials): by name, the panels with no group last. */
export interface LogInGroup<P> {
  /** The group's name, '' for the panels with none. */
  key: string;
  panels: P[];
}

const collator = madeOnce(() => new Intl.Collator('en', { numeric: true, sensitivity: 'base' }));

export function logInGroups<P extends Pick<Panel, 'group'>>(targets: readonly P[]): LogInGroup<P>[] {
  const groups = new Map<string, P[]>();
  for (const panel of targets) {
    const key = panel.group ?? '';
    const members = groups.get(key);
    if (members) members.push(panel);
    else groups.set(key, [panel]);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => (a === '' ? 1 : b === '' ? -1 : collator().compare(a, b)))
    .map(([key, panels]) => ({ key, panels }));
}

/** The runs a log in by group sends: one per group given a password, in the groups' order; a group left empty is left out. */
export function groupRuns<P extends Pick<Panel, 'id'>>(
  groups: readonly LogInGroup<P>[],
  typed: ReadonlyMap<string, { email: string; password: string }>,
): { key: string; panelIds: string[]; email: string; password: string }[] {
  return groups.flatMap(({ key, panels }) => {
    const credentials = typed.get(key);
    if (!credentials || credentials.password === '' || credentials.email.trim() === '') return [];
    return [{ key, panelIds: panels.map((panel) => panel.id), email: credentials.email.trim(), password: credentials.password }];
  });
}

/** Who the log in goes to: the signed-out panels, and the signed-in ones only when the operator asked. */
export function fleetTargets<P extends Pick<Panel, 'signedIn'>>(panels: readonly P[], alsoSignedIn: boolean): P[] {
  return alsoSignedIn ? [...panels] : panels.filter((panel) => !panel.signedIn);
}

/** Of the targets, those the password would reach unencrypted (named in the form before anything is sent). */
export function unencryptedTargets<P extends Pick<Panel, 'allowPlainHttp' | 'baseUrl'>>(panels: readonly P[]): P[] {
  return panels.filter(isUnencrypted);
}

/** "Log in to 5 panels…"; "Log in again to 3 panels…" when all are signed in already. */
export function fleetLogInLabel(panels: readonly Pick<Panel, 'signedIn'>[]): string {
  const signedOut = panels.filter((panel) => !panel.signedIn).length;
  return signedOut === 0 ? `Log in again to ${plural(panels.length, 'panel')}…` : `Log in to ${plural(signedOut, 'panel')}…`;
}

/** One line per outcome that happened, most hopeful first: "100 signed in", "10 need a two-factor code". */
export function outcomeLines(results: readonly FleetLogInResult[]): { outcome: FleetLogInResult['outcome']; text: string }[] {
  const counts = countOutcomes(results);
  return FLEET_OUTCOMES.filter((outcome) => counts[outcome] > 0).map((outcome) => ({
    outcome,
    text: `${counts[outcome].toLocaleString('en')} ${OUTCOME_WORDS[outcome]}`,
  }));
}

/** The panels that need the operator once more (a code, a certificate, another password), in the order asked. */
export function resultsToFinish(results: readonly FleetLogInResult[]): FleetLogInResult[] {
  return results.filter((result) => TO_FINISH.has(result.outcome));
}

/** The other failures: told, not finished here (unreachable, refused over plain http, cancelled...). */
export function otherFailures(results: readonly FleetLogInResult[]): FleetLogInResult[] {
  return results.filter((result) => result.outcome !== 'signedIn' && !TO_FINISH.has(result.outcome));
}

/** The results with one panel's outcome replaced (after it was finished from the list). */
export function withOutcome(results: readonly FleetLogInResult[], next: FleetLogInResult): FleetLogInResult[] {
  return results.map((result) => (result.panelId === next.panelId ? next : result));
}

/**
 * A panel's result after the operator tried to finish it again from the list: a refused code
 * still needs a code (not another password), anything else reads as any log in's failure.
 */
export function retriedResult(previous: FleetLogInResult, error: ErrorInfo): FleetLogInResult {
  const codeRefused = previous.outcome === 'needsCode' && error.code === 'INVALID_CREDENTIALS' && error.message === CODE_REFUSED_MESSAGE;
  return { panelId: previous.panelId, outcome: codeRefused ? 'needsCode' : outcomeOfError(error), error };
}

/** A later run's outcomes over an earlier run's: the panels sent to again take their new outcome. */
export function mergedResults(earlier: readonly FleetLogInResult[], later: readonly FleetLogInResult[]): FleetLogInResult[] {
  const byPanel = new Map(later.map((result) => [result.panelId, result]));
  const kept = earlier.map((result) => byPanel.get(result.panelId) ?? result);
  const known = new Set(earlier.map((result) => result.panelId));
  return [...kept, ...later.filter((result) => !known.has(result.panelId))];
}

/** The panels that refused the email or password: a log in by group can give them their own. */
export function refusedPanels(results: readonly FleetLogInResult[]): string[] {
  return results.filter((result) => result.outcome === 'wrongPassword').map((result) => result.panelId);
}

/**
 * The panels a password may go to: a panel that refused this same email and password in this
 * dialog is not sent it again (a lockout risk on panels that limit log ins).
 */
export function notRefusedBefore(
  panelIds: readonly string[],
  credentials: { email: string; password: string },
  refused: ReadonlyMap<string, ReadonlySet<string>>,
): string[] {
  const pair = credentialsKey(credentials);
  return panelIds.filter((id) => !refused.get(id)?.has(pair));
}

/** One email and password as one key: JSON keeps the two apart whatever characters they hold; the email as sent, trimmed. */
export function credentialsKey(credentials: { email: string; password: string }): string {
  return JSON.stringify([credentials.email.trim(), credentials.password]);
}
