/**
 * A panel's `pattern` (JSON Schema, ECMAScript syntax) matched in time linear in the text: the
 * pattern is compiled to a Thompson automaton and the text walked once, every state at a time, so
 * no pattern can backtrack (`^([a-z0-9]|[a-z])*$` against 32 characters held main 43 s with a
 * RegExp). The subset: literals and escapes, `.`, classes with ranges and negation, `\d \w \s`
 * and their negations, `^ $`, groups (capturing, `(?:…)`, named), `|`, and `* + ? {n} {n,} {n,m}`
 * (lazy or not: whether it matches is the same). Back-references, look-arounds, word boundaries
 * and Unicode properties are outside it: `compilePattern` says why, and such a pattern is left to
 * the panel to check. Used by the window as the operator types and by main before it sends.
 */

/** A pattern compiled, or why it is not run. */
export type CompiledPattern = { ok: true; test(text: string): boolean } | { ok: false; why: string };

/** States at most: bounded repetitions are copied out, so `{1,1000}` of a class is a thousand states. */
const MAX_STATES = 4000;

type CharTest = (codePoint: number) => boolean;

type Node =
  | { kind: 'char'; test: CharTest }
  | { kind: 'start' }
  | { kind: 'end' }
  | { kind: 'seq'; items: Node[] }
  | { kind: 'alt'; options: Node[] }
  | { kind: 'repeat'; node: Node; min: number; max: number };

class Unsupported extends Error {}

const LINE_TERMINATORS = new Set([0x0a, 0x0d, 0x2028, 0x2029]);
const isDigit: CharTest = (c) => c >= 0x30 && c <= 0x39;
const isWord: CharTest = (c) => isDigit(c) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f;
const SPACES = new Set([0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20, 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff]);
const isSpace: CharTest = (c) => SPACES.has(c) || (c >= 0x2000 && c <= 0x200a);
const not =
  (test: CharTest): CharTest =>
  (c) =>
    !test(c);

class Parser {
  readonly #source: number[];
  #at = 0;

  constructor(source: string) {
    this.#source = [...source].map((char) => char.codePointAt(0)!);
  }

  parse(): Node {
    const node = this.#alternation();
    if (this.#at < this.#source.length) throw new Unsupported(`an unmatched ")" at ${this.#at}`);
    return node;
  }

  #peek(): number | undefined {
    return this.#source[this.#at];
  }

  #eat(char: string): boolean {
    if (this.#peek() !== char.codePointAt(0)) return false;
    this.#at++;
    return true;
  }

  #alternation(): Node {
    const options = [this.#sequence()];
    while (this.#eat('|')) options.push(this.#sequence());
    return options.length === 1 ? options[0]! : { kind: 'alt', options };
  }

  #sequence(): Node {
    const items: Node[] = [];
    for (let next = this.#peek(); next !== undefined && next !== 0x7c && next !== 0x29; next = this.#peek()) items.push(this.#quantified());
    return { kind: 'seq', items };
  }

  #quantified(): Node {
    const atom = this.#atom();
    const bounds = this.#quantifier();
    if (!bounds) return atom;
    if (atom.kind === 'start' || atom.kind === 'end') throw new Unsupported('a quantified anchor');
    this.#eat('?');
    return { kind: 'repeat', node: atom, min: bounds.min, max: bounds.max };
  }

  #quantifier(): { min: number; max: number } | null {
    if (this.#eat('*')) return { min: 0, max: Number.POSITIVE_INFINITY };
    if (this.#eat('+')) return { min: 1, max: Number.POSITIVE_INFINITY };
    if (this.#eat('?')) return { min: 0, max: 1 };
    if (this.#peek() !== 0x7b) return null;
    const start = this.#at;
    this.#at++;
    const min = this.#number();
    let max = min;
    if (this.#eat(',')) max = this.#peek() === 0x7d ? Number.POSITIVE_INFINITY : this.#number();
    if (min === null || max === null || !this.#eat('}')) {
      // Not a quantifier: under the `u` flag a lone brace is an error, as it is here.
      this.#at = start;
      throw new Unsupported('a "{" that is not a quantifier');
    }
    if (max < min) throw new Unsupported('a quantifier whose maximum is below its minimum');
    return { min, max };
  }

  #number(): number | null {
    let digits = '';
    while (this.#peek() !== undefined && isDigit(this.#peek()!)) digits += String.fromCodePoint(this.#source[this.#at++]!);
    return digits === '' ? null : Number(digits);
  }

  #atom(): Node {
    const char = this.#source[this.#at++];
    if (char === undefined) throw new Unsupported('an unfinished pattern');
    switch (char) {
      case 0x5e:
        return { kind: 'start' };
      case 0x24:
        return { kind: 'end' };
      case 0x2e:
        return { kind: 'char', test: (c) => !LINE_TERMINATORS.has(c) };
      case 0x28:
        return this.#group();
      case 0x5b:
        return { kind: 'char', test: this.#class() };
      case 0x5c:
        return { kind: 'char', test: this.#escape(false) };
      case 0x2a:
      case 0x2b:
      case 0x3f:
      case 0x7b:
      case 0x7d:
      case 0x5d:
        throw new Unsupported(`a "${String.fromCodePoint(char)}" with nothing to repeat or close`);
      default:
        return { kind: 'char', test: (c) => c === char };
    }
  }

  #group(): Node {
    if (this.#eat('?')) {
      if (this.#eat(':')) {
        /* a group that does not capture */
      } else if (this.#eat('<') && this.#peek() !== 0x3d && this.#peek() !== 0x21) {
        while (this.#peek() !== undefined && this.#peek() !== 0x3e) this.#at++;
        if (!this.#eat('>')) throw new Unsupported('an unfinished group name');
      } else throw new Unsupported('a look-ahead or look-behind');
    }
    const inside = this.#alternation();
    if (!this.#eat(')')) throw new Unsupported('an unclosed group');
    return inside;
  }

  #class(): CharTest {
    const negated = this.#eat('^');
    const parts: CharTest[] = [];
    let first = true;
    for (;;) {
      const char = this.#source[this.#at];
      if (char === undefined) throw new Unsupported('an unclosed "["');
      if (char === 0x5d && !first) {
        this.#at++;
        break;
      }
      first = false;
      const low = this.#classAtom();
      if (this.#peek() === 0x2d && this.#source[this.#at + 1] !== undefined && this.#source[this.#at + 1] !== 0x5d) {
        this.#at++;
        const high = this.#classAtom();
        if (typeof low !== 'number' || typeof high !== 'number') throw new Unsupported('a range between classes');
        if (high < low) throw new Unsupported('a range out of order');
        parts.push((c) => c >= low && c <= high);
      } else parts.push(typeof low === 'number' ? (c) => c === low : low);
    }
    const inClass: CharTest = (c) => parts.some((part) => part(c));
    return negated ? not(inClass) : inClass;
  }

  /** One character of a class (a code point), or an escape standing for a class of them. */
  #classAtom(): number | CharTest {
    const char = this.#source[this.#at++]!;
    if (char !== 0x5c) return char;
    const test = this.#escape(true);
    return (test as CharTest & { codePoint?: number }).codePoint ?? test;
  }

  /** After a backslash: the character or class it stands for. `inClass`: `\b` is a backspace there. */
  #escape(inClass: boolean): CharTest {
    const char = this.#source[this.#at++];
    if (char === undefined) throw new Unsupported('a pattern ending in "\\"');
    const one = (codePoint: number): CharTest => Object.assign((c: number) => c === codePoint, { codePoint });
    switch (String.fromCodePoint(char)) {
      case 'd':
        return isDigit;
      case 'D':
        return not(isDigit);
      case 'w':
        return isWord;
      case 'W':
        return not(isWord);
      case 's':
        return isSpace;
      case 'S':
        return not(isSpace);
      case 't':
        return one(0x09);
      case 'n':
        return one(0x0a);
      case 'r':
        return one(0x0d);
      case 'f':
        return one(0x0c);
      case 'v':
        return one(0x0b);
      case '0':
        return one(0x00);
      case 'b':
        if (inClass) return one(0x08);
        throw new Unsupported('a word boundary (\\b)');
      case 'x':
        return one(this.#hex(2));
      case 'u': {
        if (this.#eat('{')) {
          let digits = '';
          while (this.#peek() !== undefined && this.#peek() !== 0x7d) digits += String.fromCodePoint(this.#source[this.#at++]!);
          if (!this.#eat('}') || !/^[0-9a-fA-F]{1,6}$/.test(digits)) throw new Unsupported('a malformed \\u{…}');
          return one(Number.parseInt(digits, 16));
        }
        return one(this.#hex(4));
      }
      case 'p':
      case 'P':
        throw new Unsupported('a Unicode property (\\p{…})');
      case 'k':
        throw new Unsupported('a back-reference');
      case 'B':
        throw new Unsupported('a word boundary (\\B)');
      default:
        if (isDigit(char)) throw new Unsupported('a back-reference');
        // Under the `u` flag only syntax characters (and "-" in a class) may be escaped.
        if (!'^$\\.*+?()[]{}|/-'.includes(String.fromCodePoint(char)))
          throw new Unsupported(`an unknown escape \\${String.fromCodePoint(char)}`);
        return one(char);
    }
  }

  #hex(count: number): number {
    let digits = '';
    for (let index = 0; index < count; index++) {
      const char = this.#source[this.#at++];
      if (char === undefined) throw new Unsupported('a short hexadecimal escape');
      digits += String.fromCodePoint(char);
    }
    if (!/^[0-9a-fA-F]+$/.test(digits)) throw new Unsupported('a malformed hexadecimal escape');
    return Number.parseInt(digits, 16);
  }
}

/** A state of the automaton: a character to take, a fork, an anchor, or the match. */
type State =
  | { kind: 'char'; test: CharTest; next: number }
  | { kind: 'split'; next: number; other: number }
  | { kind: 'start'; next: number }
  | { kind: 'end'; next: number }
  | { kind: 'match' };

/** Thompson's construction: each node becomes a piece with one way in and its loose ends to patch. */
class Builder {
  readonly states: State[] = [];

  #add(state: State): number {
    if (this.states.length >= MAX_STATES) throw new Unsupported(`more than ${MAX_STATES} states (a large bounded repetition)`);
    this.states.push(state);
    return this.states.length - 1;
  }

  /** Builds `node` so that it continues to `next`; returns its entry. Built back to front, so no patching is needed. */
  build(node: Node, next: number): number {
    switch (node.kind) {
      case 'char':
        return this.#add({ kind: 'char', test: node.test, next });
      case 'start':
        return this.#add({ kind: 'start', next });
      case 'end':
        return this.#add({ kind: 'end', next });
      case 'seq': {
        let entry = next;
        for (let index = node.items.length - 1; index >= 0; index--) entry = this.build(node.items[index]!, entry);
        return entry;
      }
      case 'alt': {
        let entry = this.build(node.options.at(-1)!, next);
        for (let index = node.options.length - 2; index >= 0; index--)
          entry = this.#add({ kind: 'split', next: this.build(node.options[index]!, next), other: entry });
        return entry;
      }
      case 'repeat': {
        let entry = next;
        if (node.max === Number.POSITIVE_INFINITY) {
          // A loop: a fork into the node (which comes back to the fork) or on.
          const fork = this.#add({ kind: 'split', next: -1, other: next });
          (this.states[fork] as { next: number }).next = this.build(node.node, fork);
          entry = fork;
        } else {
          for (let index = node.min; index < node.max; index++)
            entry = this.#add({ kind: 'split', next: this.build(node.node, entry), other: next });
        }
        for (let index = 0; index < node.min; index++) entry = this.build(node.node, entry);
        return entry;
      }
    }
  }
}

/** The pattern compiled for `test`, or why it is not (outside the subset, or too large). */
export function compilePattern(pattern: string): CompiledPattern {
  let states: State[];
  let entry: number;
  try {
    const builder = new Builder();
    const match = builder.states.push({ kind: 'match' }) - 1;
    entry = builder.build(new Parser(pattern).parse(), match);
    states = builder.states;
  } catch (error) {
    if (error instanceof Unsupported) return { ok: false, why: `it uses ${error.message}` };
    throw error;
  }
  return { ok: true, test: (text) => run(states, entry, text) };
}

/** Whether the automaton matches anywhere in `text` (a search, as `RegExp.test`): every state at a time, each code point once. */
function run(states: readonly State[], entry: number, text: string): boolean {
  const codePoints = [...text].map((char) => char.codePointAt(0)!);
  const length = codePoints.length;
  let current: number[] = [];
  let seen = new Uint32Array(states.length);
  let generation = 0;
  /** Adds `state` and what it leads to without taking a character; true once the match is reached. */
  const add = (list: number[], state: number, at: number): boolean => {
    const stack = [state];
    while (stack.length > 0) {
      const index = stack.pop()!;
      if (seen[index] === generation) continue;
      seen[index] = generation;
      const one = states[index]!;
      switch (one.kind) {
        case 'match':
          return true;
        case 'char':
          list.push(index);
          break;
        case 'split':
          stack.push(one.other, one.next);
          break;
        case 'start':
          if (at === 0) stack.push(one.next);
          break;
        case 'end':
          if (at === length) stack.push(one.next);
          break;
      }
    }
    return false;
  };
  for (let at = 0; ; at++) {
    generation++;
    if (generation === 0xffffffff) {
      seen = new Uint32Array(states.length);
      generation = 1;
    }
    const next: number[] = [];
    for (const index of current) {
      const one = states[index] as Extract<State, { kind: 'char' }>;
      if (add(next, one.next, at)) return true;
    }
    // A search: a match may begin at every position.
    if (add(next, entry, at)) return true;
    if (at === length) return false;
    const codePoint = codePoints[at]!;
    current = next.filter((index) => (states[index] as Extract<State, { kind: 'char' }>).test(codePoint));
  }
}
