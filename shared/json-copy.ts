type Container = Record<string, unknown> | unknown[];

export interface JsonCopyRules {
  /** What a string, number, boolean or null becomes (default: itself). */
  value?(item: unknown): unknown;
  /** An object entry's key in the copy, and optionally a value that replaces the whole entry's value. */
  entry?(key: string, item: unknown): { key: string } | { key: string; value: unknown };
}

/**
 * A deep copy of JSON-like data with `rules` applied on the way. It walks with a stack, not
 * recursion, because a panel's answer may nest thousands of levels deep; and it defines the key
 * "__proto__" rather than assigning it, so it stays an ordinary key, as JSON.parse made it.
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
    const target = copy as Record<string, unknown>;
    // for…in with hasOwn rather than Object.entries, and assignment rather than defineProperty
    // except for "__proto__" (the one key an assignment would not make an own property): on a
    // 4 MiB answer of small objects this is several times faster, and it runs on main's event loop.
    for (const key in source) {
      if (!Object.hasOwn(source, key)) continue;
      const item = (source as Record<string, unknown>)[key];
      const entry = rules.entry ? rules.entry(key, item) : { key };
      const kept = 'value' in entry ? entry.value : copyOf(item);
      if (entry.key === '__proto__') {
        Object.defineProperty(target, entry.key, { value: kept, enumerable: true, writable: true, configurable: true });
      } else {
        target[entry.key] = kept;
      }
    }
  }
  return result;
}
