import { HIDDEN_SECRET } from '../../shared/types.ts';

export { HIDDEN_SECRET };

type Container = Record<string, unknown> | unknown[];

/**
 * A copy of a panel's session answer with every string that contains a secret (the token the
 * panel was asked with) replaced, keys included, because the session goes to the renderer and
 * the token must never reach it. Walks with a stack, not recursion: an answer may nest deeply.
 */
export function hideSecrets(value: unknown, secrets: readonly string[]): unknown {
  const needles = secrets.filter((secret) => secret.length > 0);
  const holdsSecret = (text: string) => needles.some((secret) => text.includes(secret));
  const pending: { source: Container; copy: Container }[] = [];
  const copyOf = (item: unknown): unknown => {
    if (typeof item === 'string') return holdsSecret(item) ? HIDDEN_SECRET : item;
    if (typeof item !== 'object' || item === null) return item;
    const copy: Container = Array.isArray(item) ? [] : {};
    pending.push({ source: item as Container, copy });
    return copy;
  };

  const result = copyOf(value);
  for (let next = pending.pop(); next; next = pending.pop()) {
    const { source, copy } = next;
    if (Array.isArray(source) && Array.isArray(copy)) {
      for (const item of source) copy.push(copyOf(item));
      continue;
    }
    let hidden = 0;
    for (const [key, item] of Object.entries(source)) {
      const name = holdsSecret(key) ? `${HIDDEN_SECRET} ${++hidden}` : key;
      // defineProperty keeps a key named "__proto__" an ordinary key, as JSON.parse made it.
      Object.defineProperty(copy, name, { value: copyOf(item), enumerable: true, writable: true, configurable: true });
    }
  }
  return result;
}
