import { isSecretKey as isSecretKeyUncached } from '../session-fields.ts';

/** Answers repeat the same few keys thousands of times: each is judged once (bounded, so a hostile answer's unique keys cannot grow it). */
const judged = new Map<string, boolean>();
const MAX_JUDGED = 10_000;

/** The one rule of which keys hold secrets, for every part of the console. */
export function isSecretKey(key: string): boolean {
  let secret = judged.get(key);
  if (secret === undefined) {
    // Env values hold a service's secrets (database URLs, API keys) under names of the operator's choice.
    secret = isSecretKeyUncached(key) || /^env$|^environment$|(^|[a-z0-9_])(env|Env|ENV)$/.test(key);
    if (judged.size >= MAX_JUDGED) judged.clear();
    judged.set(key, secret);
  }
  return secret;
}
