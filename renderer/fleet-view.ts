import type { Panel } from '../shared/types.ts';
import { panelStatus, type PanelStatusKind } from './panel-status.ts';

/**
 * What the panel list shows of the fleet: which panels match the search and the attention
 * filter, how many are in each state, and the short "checked 3 min ago" / "expires in 40 min"
 * texts of a row. Pure functions of the panels and the clock, so they run in tests under Node and
 * stay cheap over ten thousand panels (one pass, no sorting here).
 */

/** The states a row can be in, in the order the counts show them. */
export const STATUS_ORDER: readonly PanelStatusKind[] = ['signed-in', 'check-failed', 'expired', 'signed-out'];

export const STATUS_NAMES: Readonly<Record<PanelStatusKind, string>> = {
  'signed-in': 'Signed in',
  'check-failed': 'Failing',
  expired: 'Expired',
  'signed-out': 'Signed out',
};

/** Words an operator types for a state, beside its label ("failing", "expired", "signed out"). */
const STATUS_WORDS: Readonly<Record<PanelStatusKind, string>> = {
  'signed-in': 'signed in ok',
  'check-failed': 'failing failed error check failed',
  expired: 'expired session expired',
  'signed-out': 'signed out logged out',
};

/** Needs the operator: a session the panel ended, a check that failed, or no sign-in at all. */
export function needsAttention(kind: PanelStatusKind): boolean {
  return kind !== 'signed-in';
}

export interface FleetFilter {
  /** What the operator typed; every word must match (name, address, status words). */
  query: string;
  /** Only panels that need attention. */
  attentionOnly: boolean;
}

export interface FleetRow {
  panel: Panel;
  kind: PanelStatusKind;
  label: string;
}

export interface FleetView {
  /** The rows shown, in the list's order. */
  rows: FleetRow[];
  /** Per state, over the whole fleet (not only the rows shown). */
  counts: Record<PanelStatusKind, number>;
  attention: number;
}

/** Lower case, without accents, so "Zürich" is found by "zurich". */
function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/** The words of a query; an empty query has none and matches everything. */
export function queryTerms(query: string): string[] {
  return fold(query).split(/\s+/).filter(Boolean);
}

/**
 * The view of `panels` under `filter`, in one pass. Each panel's searchable text is kept by
 * identity: panels are immutable, so a keystroke over ten thousand of them only compares strings.
 */
export function fleetView(panels: readonly Panel[], filter: FleetFilter, cache: WeakMap<Panel, string> = new WeakMap()): FleetView {
  const terms = queryTerms(filter.query);
  const counts: Record<PanelStatusKind, number> = { 'signed-in': 0, 'check-failed': 0, expired: 0, 'signed-out': 0 };
  const rows: FleetRow[] = [];
  for (const panel of panels) {
    const status = panelStatus(panel);
    counts[status.kind]++;
    if (filter.attentionOnly && !needsAttention(status.kind)) continue;
    if (terms.length > 0) {
      let text = cache.get(panel);
      if (text === undefined) {
        text = fold(`${panel.name} ${panel.address} ${status.label} ${STATUS_WORDS[status.kind]}`);
        cache.set(panel, text);
      }
      if (!terms.every((term) => text.includes(term))) continue;
    }
    rows.push({ panel, kind: status.kind, label: status.label });
  }
  return { rows, counts, attention: counts['check-failed'] + counts.expired + counts['signed-out'] };
}

/** "just now", "3 min ago", "2 h ago", "4 days ago": when a panel was last checked. */
export function agoText(at: string, now: number): string {
  const elapsed = now - Date.parse(at);
  if (!Number.isFinite(elapsed)) return '';
  const minutes = Math.floor(Math.max(0, elapsed) / 60_000);
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.floor(hours / 24)} days ago`;
}

export type ExpiryTone = 'ok' | 'soon' | 'ended';

/** A row's session end: "expires in 40 min" (amber under an hour), "expired" (red), or null when unknown. */
export function expiryText(expiresAt: string | null, now: number): { text: string; tone: ExpiryTone } | null {
  if (expiresAt === null) return null;
  const left = Date.parse(expiresAt) - now;
  if (!Number.isFinite(left)) return null;
  if (left <= 0) return { text: 'expired', tone: 'ended' };
  const minutes = Math.floor(left / 60_000);
  if (minutes < 1) return { text: 'expires in under a minute', tone: 'soon' };
  if (minutes < 60) return { text: `expires in ${minutes} min`, tone: 'soon' };
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return { text: `expires in ${hours} h${minutes % 60 === 0 ? '' : ` ${minutes % 60} min`}`, tone: 'ok' };
  return { text: `expires in ${Math.floor(hours / 24)} days`, tone: 'ok' };
}

/**
 * Type-ahead in the list: the next row after `from` (wrapping) whose name starts with `typed`,
 * or -1. Repeating one letter steps through the rows starting with it, as in a file manager.
 */
export function typeAheadIndex(rows: readonly FleetRow[], typed: string, from: number): number {
  const prefix = fold(typed);
  if (prefix === '' || rows.length === 0) return -1;
  const repeated = prefix.length > 1 && [...prefix].every((letter) => letter === prefix[0]);
  const wanted = repeated ? prefix[0]! : prefix;
  // A new prefix may match the current row itself; a repeated letter moves on.
  const start = repeated || prefix.length === 1 ? from + 1 : from;
  for (let step = 0; step < rows.length; step++) {
    const index = (((start + step) % rows.length) + rows.length) % rows.length;
    if (fold(rows[index]!.panel.name).startsWith(wanted)) return index;
  }
  return -1;
}
