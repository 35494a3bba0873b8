import { copyJson } from '../../../shared/json-copy.ts';
import { HIDDEN_SECRET } from '../../../shared/types.ts';
import { secretMatcher, type SecretMatcher } from './secret-match.ts';

export { HIDDEN_SECRET };

/**
 * A copy of a panel's session answer with every string that contains a secret (the token the
 * panel was asked with) replaced, keys included, because the session goes to the renderer and
 * the token must never reach it. "Contains" covers the encoded forms `secretMatcher` knows
 * (other case, percent-encoded, base64, hex). Any depth: copyJson walks with a stack.
 */
export function hideSecrets(value: unknown, secrets: readonly string[] | SecretMatcher): unknown {
  // Built once per answer at least: the needles cost more than one test.
  const holdsSecret = typeof secrets === 'function' ? secrets : secretMatcher(secrets);
  // Numbered, so that two hidden keys of one object stay two keys.
  let hidden = 0;
  return copyJson(value, {
    value: (item) => (typeof item === 'string' && holdsSecret(item) ? HIDDEN_SECRET : item),
    entry: (key) => ({ key: holdsSecret(key) ? `${HIDDEN_SECRET} ${++hidden}` : key }),
  });
}
