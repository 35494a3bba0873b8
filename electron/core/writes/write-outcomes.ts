import { PanelError } from '../../../shared/contract/errors.ts';
import type { WriteOutcome } from '../activity/activity-methods.ts';
import { NoAnswerError, UnreadableAnswerError } from '../easypanel/panel-calls.ts';

/** Connection failures that happen before anything is sent: the panel never heard of the write. */
const NEVER_SENT = /refused the connection|Could not find|cannot be reached|secure connection/;

/**
 * A message about a write without its advice to try again: a write is never repeated on Paneldeck's
 * word (the first may have been done); how to find out is said instead.
 */
export function withoutRetryAdvice(message: string): string {
  const kept = message
    .split(/(?<=[.;:])\s+/)
    .filter((sentence) => !/\btry (it )?again\b|\bretry\b/i.test(sentence))
    .join(' ')
    .replace(/[;:]\s*$/, '.');
  return kept.trim() === '' ? 'Not done.' : kept;
}

/**
 * What a failed write came to, `check` saying how to find out ("check the service"). After it was
 * sent, no answer from the panel itself (a timeout, a connection closed, a gateway's 502/503/504/524,
 * an answer that could not be read) is unknown, never failed: the panel may have done it. A
 * refusal, or a failure the panel reported, is failed in its words. A change after the
 * confirmation sent nothing: not sent.
 */
export function writeOutcome(error: unknown, check: string): WriteOutcome {
  if (!(error instanceof PanelError)) return { outcome: 'failed', message: 'Paneldeck failed before the panel answered.' };
  if (error.code === 'CHANGED_BEFORE_SENDING') return { outcome: 'not-sent', message: error.message };
  // The panel turned the token away before doing anything: said so, never as an unknown outcome.
  if (error.code === 'UNAUTHORIZED') return { outcome: 'failed', message: `Refused, not done: ${withoutRetryAdvice(error.message)}` };
  if (error instanceof UnreadableAnswerError)
    return { outcome: 'unknown', message: `The panel's answer could not be read (${withoutRetryAdvice(error.message)}); ${check}` };
  if (error instanceof NoAnswerError) return { outcome: 'unknown', message: `${error.message} ${capitalise(check)}` };
  if (error.code === 'TIMEOUT') return { outcome: 'unknown', message: `The panel did not answer in time; ${check}` };
  if (error.code === 'NETWORK' && !NEVER_SENT.test(error.message))
    return { outcome: 'unknown', message: `The connection closed before the panel answered; ${check}` };
  return { outcome: 'failed', message: withoutRetryAdvice(error.message) };
}

const capitalise = (text: string) => (text === '' ? text : `${text[0]!.toUpperCase()}${text.slice(1)}`);
