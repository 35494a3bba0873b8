/**
 * The one matcher and ranker of the panel list's search and the command palette. A query word
 * matches the start of a word (a name, an address, a group, a tag, the version) or a whole state
 * or colour word ("red" finds red panels, never "expi-red"; "log" never finds "logged out").
 * Ranking: the exact name first, then a name starting with the query, then every word in the
 * name, then the rest, so a digit of an address never outranks the name. Pure, and cheap once a
 * panel's entry is built (one folded string per panel): it runs over ten thousand panels a key.
 */

import { fold } from '../../shared/text-fold.ts';

// The list's other files and the features behind index.ts take the fold from here, as before.
export { fold };

export interface SearchQuery {
  /** The words typed, folded, but the fact terms; none matches everything. */
  terms: readonly string[];
  /** The query's words as one name is compared (`nameKey`), for the exact and prefix ranks. */
  key: string;
  /** The fact terms typed (`down`, `disk>90`, `version:2.30`): each must hold of a panel's facts. */
  facts: readonly FactTest[];
}

export function searchQuery(query: string): SearchQuery {
  const words: string[] = [];
  const facts: FactTest[] = [];
  for (const word of fold(query).split(/\s+/).filter(Boolean)) {
    const fact = factTest(word);
    if (fact) facts.push(fact);
    else words.push(word);
  }
  return { terms: words, key: nameKey(words.join(' ')), facts };
}

/** What the last check read of a panel, as the fact terms test it; null where unknown. */
export interface PanelFacts {
  servicesDown: number | null;
  diskPercent: number | null;
  memoryPercent: number | null;
  cpuPercent: number | null;
  /** The version the panel named ("2.30.1"). */
  version: string | null;
  /** Whether the panel said a newer Easypanel is out. */
  updateAvailable: boolean | null;
}

export type FactTest = (facts: PanelFacts) => boolean;

const MEASURE = /^(disk|mem|memory|cpu)(>=|<=|>|<|=)(\d+(?:\.\d+)?)%?$/;
const MEASURES = { disk: 'diskPercent', mem: 'memoryPercent', memory: 'memoryPercent', cpu: 'cpuPercent' } as const;

/**
 * A fact term, or null for a word: `down` (a service down), `disk>90` (also `<`, `>=`, `<=`, `=`;
 * `mem`, `cpu`), `version:2.30` (2.30 and every 2.30.x, never 2.300), `update:available` (a newer
 * Easypanel is out). An unknown figure never matches.
 */
export function factTest(word: string): FactTest | null {
  if (word === 'down') return (facts) => (facts.servicesDown ?? 0) > 0;
  if (word === 'update:available') return (facts) => facts.updateAvailable === true;
  if (word.startsWith('version:') && word.length > 'version:'.length) {
    const wanted = word.slice('version:'.length).replace(/^v/, '');
    return ({ version }) => version !== null && (version === wanted || version.startsWith(`${wanted}.`));
  }
  const measure = MEASURE.exec(word);
  if (!measure) return null;
  const field = MEASURES[measure[1] as keyof typeof MEASURES];
  const limit = Number(measure[3]);
  const compare = measure[2]!;
  return (facts) => {
    const value = facts[field];
    if (value === null) return false;
    if (compare === '>') return value > limit;
    if (compare === '<') return value < limit;
    if (compare === '>=') return value >= limit;
    if (compare === '<=') return value <= limit;
    return value === limit;
  };
}

/** What one panel is searched by, built once per panel (panels are immutable). */
export interface SearchEntry {
  /** The name and every field matched from the start of a word, folded, one per line; the name first. */
  readonly text: string;
  /** Where the name ends in `text`. */
  readonly nameEnd: number;
  /** The name's words for the exact and prefix ranks: built the first time the panel matches, then kept. */
  nameWords: string | null;
  /** State and colour words: matched whole. */
  readonly whole: ReadonlySet<string>;
}

/** `fields`: the other fields matched from the start of a word, one per line; `wholeWords`: the state's and colour's words. */
export function searchEntry(name: string, fields: string, wholeWords: string): SearchEntry {
  // One fold of one string: this runs for every panel on the first search of ten thousand.
  const text = fold(`${name}\n${fields}`);
  const nameEnd = text.indexOf('\n');
  return { text, nameEnd: nameEnd === -1 ? text.length : nameEnd, nameWords: null, whole: wholeSet(wholeWords) };
}

/**
 * The sets of whole words, shared: a fleet has only a few distinct ones (a state's words and a
 * colour), so ten thousand panels share a few dozen sets.
 */
const wholeSets = new Map<string, ReadonlySet<string>>();
const MAX_WHOLE_SETS = 1000;

function wholeSet(words: string): ReadonlySet<string> {
  let set = wholeSets.get(words);
  if (set === undefined) {
    set = new Set(fold(words).split(NOT_WORD).filter(Boolean));
    if (wholeSets.size < MAX_WHOLE_SETS) wholeSets.set(words, set);
  }
  return set;
}

/** The ranks, best first; a smaller number sorts first. */
export const RANK = { exactName: 0, namePrefix: 1, wordsInName: 2, elsewhere: 3 } as const;
export const RANKS = 4;
export const NO_MATCH = -1;

/** Where `entry` ranks for `query` (RANK), or NO_MATCH when a word of the query matches nothing. */
export function matchRank(entry: SearchEntry, query: SearchQuery): number {
  const { terms } = query;
  if (terms.length === 0) return RANK.exactName;
  for (const term of terms) if (!entry.whole.has(term) && !hasWordStart(entry.text, term)) return NO_MATCH;
  if (query.key !== '') {
    entry.nameWords ??= nameKey(entry.text.slice(0, entry.nameEnd));
    if (entry.nameWords === query.key) return RANK.exactName;
    if (entry.nameWords.startsWith(query.key)) return RANK.namePrefix;
  }
  for (const term of terms) if (!hasWordStart(entry.text, term, entry.nameEnd)) return RANK.elsewhere;
  return RANK.wordsInName;
}

/** Every word of `terms` starts a word of `text` (folded): how the palette's commands are matched. */
export function matchesWords(text: string, terms: readonly string[]): boolean {
  const folded = fold(text);
  return terms.every((term) => hasWordStart(folded, term));
}

/** `items` by rank (0 first, `ranks[i]` for `items[i]`), the order given kept within a rank; one pass per rank, no sort. */
export function byRank<T>(items: readonly T[], ranks: readonly number[]): T[] {
  const buckets: T[][] = [];
  for (let rank = 0; rank < RANKS; rank++) buckets.push([]);
  for (let index = 0; index < items.length; index++) buckets[ranks[index]!]!.push(items[index]!);
  // Plain pushes: Array.prototype.flat is several times slower on ten thousand rows.
  const ordered = buckets[0]!;
  for (let rank = 1; rank < RANKS; rank++) for (const item of buckets[rank]!) ordered.push(item);
  return ordered;
}

const PLAIN_WORDS = /^[a-z0-9]+(?: [a-z0-9]+)*$/;
const NOT_WORD = /[^\p{L}\p{N}]+/u;

/** The folded words of a name, one space between them: "Abstergo-Prod EU 2" is "abstergo prod eu 2". */
function nameKey(folded: string): string {
  // Most names are words and single spaces already ("client 00042 prod"): nothing to build.
  if (PLAIN_WORDS.test(folded)) return folded;
  return folded.split(NOT_WORD).filter(Boolean).join(' ');
}

/** `term` occurs in `text` where a word starts, and ends by `end`. */
function hasWordStart(text: string, term: string, end = text.length): boolean {
  const last = end - term.length;
  for (let index = text.indexOf(term); index !== -1 && index <= last; index = text.indexOf(term, index + 1)) {
    if (startsWord(text, index)) return true;
  }
  return false;
}

/**
 * A word starts at `index`: at the start, after a space or punctuation, or where letters turn to
 * digits or back ("web07" is "web" and "07"). A term that starts with punctuation may start anywhere.
 */
function startsWord(text: string, index: number): boolean {
  if (index === 0) return true;
  const at = text.charCodeAt(index);
  const before = text.charCodeAt(index - 1);
  if (!isWordChar(at) || !isWordChar(before)) return true;
  return isDigit(at) !== isDigit(before);
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

/** Letters and digits; text is folded, and any other script counts as letters. */
function isWordChar(code: number): boolean {
  return isDigit(code) || (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || code > 127;
}
