import { copyJson } from '../../shared/json-copy.ts';
import { HIDDEN_SECRET } from '../../shared/types.ts';

export { HIDDEN_SECRET };

/**
 * A copy of a panel's session answer with every string that contains a secret (the token the
 * panel was asked with) replaced, keys included, because the session goes to the renderer and
 * the token must never reach it. Any depth: copyJson walks with a stack.
 */
export function hideSecrets(value: unknown, secrets: readonly string[]): unknown {
  const needles = secrets.filter((secret) => secret.length > 0);
  const holdsSecret = (text: string) => needles.some((secret) => text.includes(secret));
  // Numbered, so that two hidden keys of one object stay two keys.
  let hidden = 0;
  return copyJson(value, {
    value: (item) => (typeof item === 'string' && holdsSecret(item) ? HIDDEN_SECRET : item),
    entry: (key) => ({ key: holdsSecret(key) ? `${HIDDEN_SECRET} ${++hidden}` : key }),
  });
}
