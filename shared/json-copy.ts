type Container = Record<string, unknown> | unknown[];

export interface JsonCopyRules {
  /** What a string, number, boolean or null becomes (default: itself). */
  value?(item: unknown): unknown;
  /** An object entry's key in the copy, and optionally a value that replaces the whole entry's value. */
  entry?(key: string, item: unknown): { key: string } | { key: string; value: unknown };
}

/**
 * A deep copy of JSON-like data with `rules` applied on the way. It walks with a stack, not
 * recursion, because a panel's answer may nest thousands of levels deep; and it defines keys
 * rather than assigning them, so a key named "__proto__" stays an ordinary key, as JSON.parse made it.
 */
export function copyJson(value: unknown, rules: JsonCopyRules): unknown {
  const pending: { source: Container; copy: Container }[] = [];
  const copyOf = (item: unknown): unknown => {
    if (typeof item !== 'object' || item === null) return rules.value ? rules.value(item) : item;
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
    for (const [key, item] of Object.entries(source)) {
      const entry = rules.entry ? rules.entry(key, item) : { key };
      const kept = 'value' in entry ? entry.value : copyOf(item);
      Object.defineProperty(copy, entry.key, { value: kept, enumerable: true, writable: true, configurable: true });
    }
  }
  return result;
}
