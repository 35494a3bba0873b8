import { madeOnce } from './made-once.ts';

/**
 * Two texts in the order `a.localeCompare(b)` gives, through one Collator made once: each
 * `localeCompare` call builds its comparison anew, which over ten thousand rows' sort is most of it.
 */
export function compareText(a: string, b: string): number {
  return collator().compare(a, b);
}
const collator = madeOnce(() => new Intl.Collator());
