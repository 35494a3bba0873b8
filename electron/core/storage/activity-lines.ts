import {
  ACTIVITY_ACTIONS,
  type ActivityAction,
  type ActivityEntry,
  type ActivityOutcome,
  type ActivityWhat,
} from '../../../shared/types.ts';
import { isNullableString, isRecord, isTime } from '../common/guards.ts';
import { containsSecret, hasOpaqueRun } from '../secrets/secret-match.ts';

/** One line of `activity.jsonl` and its message, as written and as read back. */

/** A message is cut to this many characters: the panel's words, not its whole answer. */
export const MESSAGE_CHARS = 300;
/** Names, addresses and service names are the operator's or the panel's: kept, but never without a limit. */
const TEXT_CHARS = 2048;

/** What an entry left pending by a Paneldeck that stopped says at the next start. */
export const UNKNOWN_OUTCOME = {
  outcome: 'unknown',
  message: 'Paneldeck stopped before the panel answered; check the service.',
  finishedAt: null,
} as const satisfies Pick<ActivityEntry, 'outcome' | 'message' | 'finishedAt'>;

/** Said in place of words that may hold a secret. */
export const MESSAGE_LEFT_OUT = "The panel's words were left out: they may hold a secret.";

const OUTCOMES: readonly ActivityOutcome[] = ['pending', 'ok', 'failed', 'unknown', 'not-sent'];

/**
 * `text` as the log keeps it: on one line, at most MESSAGE_CHARS characters, and left out whole
 * when it holds one of `secrets` in a form the matcher knows or a run that may be an encoded
 * secret (as `serverMessage` does: blanking a secret out would show where it was). Null for none.
 */
export function activityMessage(text: string | null, secrets: readonly string[]): string | null {
  if (text === null) return null;
  // A window past what is kept: a secret that starts among the kept characters ends inside it.
  const flat = text
    .slice(0, 4096)
    .replace(/[\p{Cc}\s]+/gu, ' ')
    .trim();
  if (flat === '') return null;
  if (containsSecret(flat, secrets) || hasOpaqueRun(flat)) return MESSAGE_LEFT_OUT;
  return flat.length > MESSAGE_CHARS ? `${flat.slice(0, MESSAGE_CHARS - 1)}…` : flat;
}

/**
 * The entry's line, newline included; the fields in a fixed order so lines read alike. `group`:
 * the lines appended together behind one flush say so (`<id>/<count>`), so that a group a crash
 * tore (fewer of its lines on disk than it had) is known: none of its writes was sent.
 */
export function entryLine(entry: ActivityEntry, group?: string): string {
  const { id, at, panelId, panelName, panelAddress, account, what, outcome, message, finishedAt } = entry;
  const line = { id, at, panelId, panelName, panelAddress, account, what, outcome, message, finishedAt, ...(group ? { group } : {}) };
  return `${JSON.stringify(line)}\n`;
}

/** The group a line was appended in (`entryLine`), or null. */
export function lineGroup(line: string): { id: string; count: number } | null {
  const match = /"group":"([0-9a-f-]{36})\/(\d{1,6})"}$/.exec(line);
  return match ? { id: match[1]!, count: Number(match[2]) } : null;
}

/** What an entry left pending in a group a crash tore says at the next start: its begin never resolved, so it was not sent. */
export const NOT_SENT_OUTCOME = {
  outcome: 'not-sent',
  message: 'Not sent: Paneldeck stopped before it was recorded, and so before it was sent.',
  finishedAt: null,
} as const satisfies Pick<ActivityEntry, 'outcome' | 'message' | 'finishedAt'>;

const isText = (value: unknown): value is string => typeof value === 'string' && value.length <= TEXT_CHARS;

function readWhat(value: unknown): ActivityWhat | null {
  if (!isRecord(value) || !(ACTIVITY_ACTIONS as readonly unknown[]).includes(value.action)) return null;
  const what: ActivityWhat = { action: value.action as ActivityAction };
  for (const field of ['projectName', 'serviceName', 'operation'] as const) {
    const given = value[field];
    if (given === undefined) continue;
    if (!isText(given)) return null;
    what[field] = given;
  }
  return what;
}

/** The entry a line holds, or null when it is not one this version writes (damage, garbage, a cut line). */
export function readActivityLine(line: string): ActivityEntry | null {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return null;
  }
  if (!isRecord(value)) return null;
  const { id, at, panelId, panelName, panelAddress, outcome, message, finishedAt } = value;
  // Absent in entries of before it was kept: not known.
  const account = isText(value.account) ? value.account : null;
  const what = readWhat(value.what);
  if (!what || !isText(id) || id === '' || !isTime(at) || !isText(panelId) || !isText(panelName) || !isText(panelAddress)) return null;
  if (!OUTCOMES.includes(outcome as ActivityOutcome) || !isNullableString(message) || (message?.length ?? 0) > TEXT_CHARS) return null;
  if (finishedAt !== null && !isTime(finishedAt)) return null;
  return { id, at, panelId, panelName, panelAddress, account, what, outcome: outcome as ActivityOutcome, message, finishedAt };
}
