import type { ErrorCode, ErrorInfo } from './contract/errors.ts';

/**
 * What a log in to several panels did at each panel, in the words the operator acts on: the
 * result list groups panels by these, and lists the ones that need more to finish one by one.
 */
export const FLEET_OUTCOMES = [
  'signedIn',
  'needsCode',
  'needsCertificate',
  'wrongPassword',
  'plainHttpRefused',
  'addressChanged',
  'unreachable',
  'rateLimited',
  'cancelled',
  'failed',
] as const;

export type FleetOutcome = (typeof FLEET_OUTCOMES)[number];

/** One panel's answer. `error` is the core's own (already free of secrets); absent when signed in. */
export type FleetLogInResult = { panelId: string; outcome: 'signedIn' } | { panelId: string; outcome: FleetOutcome; error: ErrorInfo };

/** What a panel the run never reached says once the run was cancelled. */
export const LOG_IN_CANCELLED_MESSAGE = 'Not logged in: the log in to several panels was cancelled before this panel was reached.';

/** Outcomes the operator can finish from the result list: a code, a certificate, another password. */
export const TO_FINISH: ReadonlySet<FleetOutcome> = new Set(['needsCode', 'needsCertificate', 'wrongPassword']);

/** How each outcome reads in the result list (a count comes before it: "12 signed in"). */
export const OUTCOME_WORDS: Readonly<Record<FleetOutcome, string>> = {
  signedIn: 'signed in',
  needsCode: 'need a two-factor code',
  needsCertificate: 'need a certificate trusted',
  wrongPassword: 'refused the email or password',
  plainHttpRefused: 'not sent: plain http not allowed',
  addressChanged: 'not sent: the address changed after the log in was asked',
  unreachable: 'could not be reached',
  rateLimited: 'asked to wait (too many log ins)',
  cancelled: 'cancelled before they started',
  failed: 'failed',
};

const BY_CODE: Partial<Record<ErrorCode, FleetOutcome>> = {
  TWO_FACTOR_REQUIRED: 'needsCode',
  CERTIFICATE_UNTRUSTED: 'needsCertificate',
  CERTIFICATE_CHANGED: 'needsCertificate',
  INVALID_CREDENTIALS: 'wrongPassword',
  NETWORK: 'unreachable',
  TIMEOUT: 'unreachable',
  TLS: 'unreachable',
  RATE_LIMITED: 'rateLimited',
  CANCELLED: 'cancelled',
  CHANGED_BEFORE_SENDING: 'addressChanged',
};

/** The outcome a log in's failure stands for (plain http refusals are named where they are made). */
export function outcomeOfError(error: ErrorInfo): FleetOutcome {
  return BY_CODE[error.code] ?? 'failed';
}

/** How many panels ended each way, every outcome present (0 when none). */
export function countOutcomes(results: readonly FleetLogInResult[]): Record<FleetOutcome, number> {
  const counts = Object.fromEntries(FLEET_OUTCOMES.map((outcome) => [outcome, 0])) as Record<FleetOutcome, number>;
  for (const result of results) counts[result.outcome]++;
  return counts;
}
