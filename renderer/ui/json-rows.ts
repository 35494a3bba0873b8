import { madeOnce } from '../../shared/made-once.ts';

/**
 * The session tree as a flat list of rows. Only open branches contribute rows and each shows a
 * page of its entries, so what it costs follows what is on screen, not what the panel sent; and
 * every walk here uses an explicit stack, so a 1,000-level answer never meets a recursion limit
 * (neither here, nor in React, nor in the DOM, which stays one list deep).
 */

/** Entries a newly opened branch shows; the rest come a page at a time. */
export const PAGE_SIZE = 100;
/**
 * "Show all N" is offered up to this many entries; beyond, "Show 1,000 more" instead. Measured
 * (npm run bench): showing 10,000 rows at once held the window for about half a second.
 */
export const SHOW_ALL_LIMIT = 2_000;
/** Levels open when an answer first shows (the root and its children). */
export const INITIAL_DEPTH = 2;
/** Rows the first view may have; branches that do not fit start closed. */
export const INITIAL_ROW_BUDGET = 500;
/** In the first view, the entries of a branch longer than this start closed: a list reads as a list. */
export const CROWDED = 20;
/** Rows "Expand all" may open; past it, the rest stays closed and the operator is told. */
export const EXPAND_ROW_BUDGET = 5_000;
/** Strings longer than this show a prefix of STRING_PREFIX characters until asked. */
export const LONG_STRING = 2_000;
export const STRING_PREFIX = 1_000;

export type Branch = Record<string, unknown> | unknown[];

export const isBranch = (value: unknown): value is Branch => typeof value === 'object' && value !== null;

/** Which branches are open and how many entries each shows (PAGE_SIZE when absent). */
export interface TreeView {
  open: ReadonlySet<Branch>;
  shown: ReadonlyMap<Branch, number>;
}

interface Placed {
  id: string;
  /** 0 for the root. */
  depth: number;
  /** The key or index under the parent; null for the root. */
  name: string | null;
  /** 1-based place among the parent's entries, and how many the parent has. */
  position: number;
  setSize: number;
}

export type JsonRow =
  | (Placed & { kind: 'branch'; value: Branch; isArray: boolean; size: number; open: boolean })
  /** `parent`: the branch holding the value (null for a lone value), which names it with `name`. */
  | (Placed & { kind: 'leaf'; value: unknown; parent: Branch | null })
  | { kind: 'more'; id: string; depth: number; owner: Branch; shown: number; total: number };

const keyCache = new WeakMap<Record<string, unknown>, string[]>();
const branchIds = new WeakMap<Branch, string>();
let nextId = 0;

/** Object.keys once per object: a 10,000-key object is walked at every render otherwise. */
function keysOf(branch: Record<string, unknown>): string[] {
  let keys = keyCache.get(branch);
  if (!keys) {
    keys = Object.keys(branch);
    keyCache.set(branch, keys);
  }
  return keys;
}

/** A stable id per branch object, so React keys survive a page being added above. */
function idOf(branch: Branch): string {
  let id = branchIds.get(branch);
  if (!id) {
    id = `b${++nextId}`;
    branchIds.set(branch, id);
  }
  return id;
}

export function sizeOf(branch: Branch): number {
  return Array.isArray(branch) ? branch.length : keysOf(branch).length;
}

/** The name and value of a branch's entry at `index`. */
export function entryAt(branch: Branch, index: number): [string, unknown] {
  if (Array.isArray(branch)) return [String(index), branch[index]];
  const key = keysOf(branch)[index] ?? '';
  return [key, branch[key]];
}

function shownOf(branch: Branch, size: number, view: TreeView): number {
  return Math.min(size, view.shown.get(branch) ?? PAGE_SIZE);
}

type Task = { kind: 'node'; value: unknown; place: Placed; parent: Branch | null } | Extract<JsonRow, { kind: 'more' }>;

/**
 * Whether an entry of a branch shows masked (the console's secret fields): its row is then a leaf
 * holding `maskedAs`, whatever the value (an object too). Asked only of the entries on screen, so
 * masking costs what is shown, not the size of the answer.
 */
export interface MaskRule {
  isMasked(parent: Branch, name: string, value: unknown): boolean;
  maskedAs: string;
}

/** The rows on screen for `root` in `view`, in document order. */
export function visibleRows(root: unknown, view: TreeView, mask?: MaskRule): JsonRow[] {
  const rows: JsonRow[] = [];
  const stack: Task[] = [{ kind: 'node', value: root, parent: null, place: { id: 'root', depth: 0, name: null, position: 1, setSize: 1 } }];
  for (let task = stack.pop(); task; task = stack.pop()) {
    if (task.kind === 'more') {
      rows.push(task);
      continue;
    }
    const { value, place, parent } = task;
    if (!isBranch(value)) {
      rows.push({ ...place, kind: 'leaf', value, parent });
      continue;
    }
    const size = sizeOf(value);
    const id = idOf(value);
    const open = size > 0 && view.open.has(value);
    rows.push({ ...place, id, kind: 'branch', value, isArray: Array.isArray(value), size, open });
    if (!open) continue;
    const shown = shownOf(value, size, view);
    const depth = place.depth + 1;
    // Pushed in reverse: the stack pops them in document order.
    if (shown < size) stack.push({ kind: 'more', id: `${id}+`, depth, owner: value, shown, total: size });
    for (let index = shown - 1; index >= 0; index--) {
      const [name, item] = entryAt(value, index);
      stack.push({
        kind: 'node',
        value: mask?.isMasked(value, name, item) ? mask.maskedAs : item,
        parent: value,
        place: { id: `${id}/${index}`, depth, name, position: index + 1, setSize: size },
      });
    }
  }
  return rows;
}

export interface OpenPlan {
  open: Set<Branch>;
  /** False when some branch within `maxDepth` stayed closed for want of rows. */
  complete: boolean;
  rows: number;
}

/**
 * Opens branches in document order, down to `maxDepth` levels, while the rows they would show
 * fit in `rowBudget`. A branch that does not fit stays closed; later, smaller ones may still open.
 * With `crowded`, the entries of a branch with more entries than that stay closed.
 */
export function planOpen(
  root: unknown,
  options: { maxDepth: number; rowBudget: number; crowded?: number; shown?: ReadonlyMap<Branch, number> },
): OpenPlan {
  const view: TreeView = { open: new Set(), shown: options.shown ?? new Map() };
  const crowded = options.crowded ?? Infinity;
  const open = new Set<Branch>();
  let rows = 1;
  let complete = true;
  const stack: { value: unknown; depth: number; mayOpen: boolean }[] = [{ value: root, depth: 0, mayOpen: true }];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const { value, depth, mayOpen } = next;
    if (!isBranch(value) || depth >= options.maxDepth || !mayOpen) continue;
    const size = sizeOf(value);
    if (size === 0) continue;
    const shown = shownOf(value, size, view);
    const cost = shown + (shown < size ? 1 : 0);
    if (rows + cost > options.rowBudget) {
      complete = false;
      continue;
    }
    rows += cost;
    open.add(value);
    for (let index = shown - 1; index >= 0; index--)
      stack.push({ value: entryAt(value, index)[1], depth: depth + 1, mayOpen: size <= crowded });
  }
  return { open, complete, rows };
}

/** What a fresh answer shows: two levels (not the items of a long list), within INITIAL_ROW_BUDGET. */
export function initialView(root: unknown): TreeView {
  return { open: planOpen(root, { maxDepth: INITIAL_DEPTH, rowBudget: INITIAL_ROW_BUDGET, crowded: CROWDED }).open, shown: new Map() };
}

/**
 * The view of a refreshed answer: branches open before stay open and branches closed before stay
 * closed, matched by key in objects and by index in arrays; what has no match before (a new key,
 * a changed shape) opens as in a fresh answer. The walk follows only what was open before.
 */
export function carryView(oldRoot: unknown, old: TreeView, newRoot: unknown): TreeView {
  const open = new Set<Branch>();
  const closed = new Set<Branch>();
  const shown = new Map<Branch, number>();
  const sameKind = (before: unknown, after: unknown): [Branch, Branch] | null =>
    isBranch(before) && isBranch(after) && Array.isArray(before) === Array.isArray(after) ? [before, after] : null;
  const stack: [Branch, Branch][] = [];
  const visit = (before: unknown, after: unknown) => {
    const pair = sameKind(before, after);
    if (!pair) return;
    if (old.open.has(pair[0])) stack.push(pair);
    else closed.add(pair[1]);
  };
  visit(oldRoot, newRoot);
  for (let pair = stack.pop(); pair; pair = stack.pop()) {
    const [before, after] = pair;
    open.add(after);
    const count = old.shown.get(before);
    if (count !== undefined) shown.set(after, count);
    const limit = shownOf(before, sizeOf(before), old);
    for (let index = 0; index < limit; index++) {
      const [name, item] = entryAt(before, index);
      visit(item, Array.isArray(after) ? after[index] : Object.hasOwn(after, name) ? after[name] : undefined);
    }
  }
  for (const branch of initialView(newRoot).open) if (!closed.has(branch)) open.add(branch);
  return { open, shown };
}

export interface JsonStats {
  /** Objects and arrays. */
  branches: number;
  /** Strings, numbers, booleans and nulls. */
  leaves: number;
  /** Levels of nesting: 0 for a lone value, 1 for a flat object. */
  depth: number;
}

export function measureJson(root: unknown): JsonStats {
  const stats: JsonStats = { branches: 0, leaves: 0, depth: 0 };
  const stack: { value: unknown; depth: number }[] = [{ value: root, depth: 0 }];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const { value, depth } = next;
    if (!isBranch(value)) {
      stats.leaves++;
      continue;
    }
    stats.branches++;
    stats.depth = Math.max(stats.depth, depth + 1);
    const items = Array.isArray(value) ? value : Object.values(value);
    for (const item of items) {
      if (isBranch(item)) stack.push({ value: item, depth: depth + 1 });
      else stats.leaves++;
    }
  }
  return stats;
}

/** Bytes of `text` as UTF-8, without encoding a megabyte to count it. */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code < 0xdc00 && index + 1 < text.length) {
      const low = text.charCodeAt(index + 1);
      if (low >= 0xdc00 && low < 0xe000) {
        bytes += 4;
        index++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

const integer = madeOnce(() => new Intl.NumberFormat('en'));

export function formatCount(count: number): string {
  return integer().format(count);
}

/** A number as the panel's JSON spelled it, as near as a double allows (-0 is 0, as in JSON). */
export function formatNumber(value: number): string {
  return JSON.stringify(value);
}
