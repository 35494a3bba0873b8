import { isSecretKey as isSecretKeyUncached } from '../../shared/secret-fields.ts';

export { isSecretValue } from '../../shared/secret-fields.ts';

/** Answers repeat the same few keys thousands of times: each is judged once (bounded, so a hostile answer's unique keys cannot grow it). */
const judged = new Map<string, boolean>();
const MAX_JUDGED = 10_000;

/** The shared rule of which keys hold secrets (shared/secret-fields.ts), remembered per key. */
export function isSecretKey(key: string): boolean {
  let secret = judged.get(key);
  if (secret === undefined) {
    secret = isSecretKeyUncached(key);
    if (judged.size >= MAX_JUDGED) judged.clear();
    judged.set(key, secret);
  }
  return secret;
}
