import type { ImportLabels, ImportRow, ImportRowStatus } from '../../../shared/transfer.ts';
import type { PanelSettings } from '../../../shared/types.ts';
import type { ValidatedEntry, ImportSettings } from './import-entry.ts';
import type { PanelRecord, PanelRecordChange } from '../storage/panel-record.ts';
import type { CertificateInfo } from '../../../shared/contract/errors.ts';
import { pathsFollowingGeneration } from '../common/generation-paths.ts';
import { TimeSlicer } from '../common/time-slices.ts';

/** What an import does, entry by entry, against the panel list as it is now. */
export interface ImportPlan {
  rows: ImportRow[];
  counts: Record<ImportRowStatus, number>;
  /** New panels, in the file's order. */
  additions: ImportSettings[];
  /** Panels already in the list whose settings the entry changes: by panel id. */
  updates: Map<string, PanelRecordChange>;
}

/**
 * The settings an import changes on a panel already in the list, with the words the preview uses;
 * null for one it leaves: whether plain http is allowed only matters to the address, which the
 * panel and the entry share; the trusted certificate moves only by the operator's act on that
 * panel (Trust, Forget), never by a file, which could otherwise pin an attacker's certificate on a
 * signed-in panel. A new setting makes the compiler ask which.
 */
const UPDATABLE: Record<keyof PanelSettings, string | null> = {
  name: 'name',
  group: 'group',
  tags: 'tags',
  colour: 'colour',
  favourite: 'favourite',
  readOnly: 'read-only',
  notes: 'notes',
  generation: 'Generation',
  loginPath: 'login path',
  sessionPath: 'session path',
  tokenField: 'token field',
  keepSignedIn: 'keep me signed in',
  trustedCertificate: null,
  allowPlainHttp: null,
};
const UPDATED_FIELDS = (Object.keys(UPDATABLE) as (keyof PanelSettings)[]).flatMap((field) => {
  const words = UPDATABLE[field];
  return words === null ? [] : [[field, words] as const];
});

/**
 * Sorts each entry: new, a duplicate of a panel in the list (by address) with other settings, the
 * same as one, or invalid. An address the text repeats counts once, at its first line.
 */
export async function planImport(entries: readonly ValidatedEntry[], records: readonly PanelRecord[]): Promise<ImportPlan> {
  const slicer = new TimeSlicer();
  const byBaseUrl = new Map<string, PanelRecord>();
  for (const record of records) {
    byBaseUrl.set(record.baseUrl, record);
    if (slicer.due) await slicer.nextSlice();
  }
  const firstLine = new Map<string, number>();
  const plan: ImportPlan = { rows: [], counts: { new: 0, duplicate: 0, same: 0, invalid: 0 }, additions: [], updates: new Map() };
  for (const entry of entries) {
    const row = rowFor(entry, byBaseUrl, firstLine, plan);
    plan.counts[row.status]++;
    plan.rows.push(row);
    // Twenty thousand entries against a fleet take longer than main may be held.
    if (slicer.due) await slicer.nextSlice();
  }
  return plan;
}

/** The entries with unencrypted HTTP allowed for the rows chosen (by position), where it was offered. */
export function withPlainHttp(
  entries: readonly ValidatedEntry[],
  variants: ReadonlyMap<number, ValidatedEntry>,
  chosen: Iterable<number>,
): ValidatedEntry[] {
  const allowed = new Set(chosen);
  return entries.map((entry, index) => (allowed.has(index) ? (variants.get(index) ?? entry) : entry));
}

/**
 * The plan a preview shows: each row refused only for plain http (`variants`, by position) says
 * what it would be with it allowed. Offered only where choosing it changes that row alone: its
 * variant is valid, and no entry valid as it is has the same address (which the choice would
 * turn into a repeat), so any set of choices applies exactly as the preview shows.
 */
export async function planPreview(
  entries: readonly ValidatedEntry[],
  variants: ReadonlyMap<number, ValidatedEntry>,
  records: readonly PanelRecord[],
): Promise<ImportPlan> {
  const plan = await planImport(entries, records);
  if (variants.size === 0) return plan;
  const allowed = await planImport(withPlainHttp(entries, variants, variants.keys()), records);
  const taken = new Set(entries.flatMap((entry) => ('settings' in entry ? [entry.settings.baseUrl] : [])));
  for (const [index, variant] of variants) {
    const row = allowed.rows[index]!;
    if (row.status !== 'invalid' && 'settings' in variant && !taken.has(variant.settings.baseUrl)) plan.rows[index]!.ifPlainHttp = row;
  }
  return plan;
}

function rowFor(
  entry: ValidatedEntry,
  byBaseUrl: ReadonlyMap<string, PanelRecord>,
  firstLine: Map<string, number>,
  plan: ImportPlan,
): ImportRow {
  if ('problem' in entry) {
    return {
      line: entry.line,
      status: 'invalid',
      name: entry.written.name,
      address: entry.written.address,
      message: entry.problem,
      changes: [],
      trustsCertificate: false,
      plainHttp: false,
      labels: {},
    };
  }
  const { settings } = entry;
  const base = {
    line: entry.line,
    address: settings.display,
    trustsCertificate: Boolean(settings.trustedCertificate),
    plainHttp: settings.allowPlainHttp && settings.baseUrl.startsWith('http://'),
    labels: labelsOf(settings),
  };
  const earlier = firstLine.get(settings.baseUrl);
  if (earlier !== undefined) {
    return {
      ...base,
      status: 'invalid',
      name: settings.name ?? settings.display,
      message: `The same address as line ${earlier}; only line ${earlier} is imported.`,
      changes: [],
      labels: {},
    };
  }
  firstLine.set(settings.baseUrl, entry.line);
  const existing = byBaseUrl.get(settings.baseUrl);
  if (!existing) {
    plan.additions.push(settings);
    return { ...base, status: 'new', name: settings.name ?? settings.display, message: entry.note ?? null, changes: [] };
  }
  const change: PanelRecordChange = {};
  const changes: string[] = [];
  for (const [key, words] of UPDATED_FIELDS) {
    const value = settings[key];
    if (value === undefined || sameValue(value, existing[key])) continue;
    (change as Record<string, unknown>)[key] = value;
    changes.push(words);
  }
  // A new generation takes its paths along, as in the panel settings, unless the entry gives them.
  if (change.generation !== undefined) {
    const moved = pathsFollowingGeneration(existing, change.generation);
    if (settings.loginPath === undefined && moved.loginPath !== undefined) change.loginPath = moved.loginPath;
    if (settings.sessionPath === undefined && moved.sessionPath !== undefined) change.sessionPath = moved.sessionPath;
  }
  const pinNote = ignoredPin(settings.trustedCertificate, existing.trustedCertificate);
  const message = [`Already in your list as "${existing.name}".`, pinNote, entry.note].filter(Boolean).join(' ');
  const row = { ...base, trustsCertificate: false };
  if (changes.length === 0) return { ...row, status: 'same', name: existing.name, message: `${message} Nothing to change.`, changes };
  plan.updates.set(existing.id, change);
  return { ...row, status: 'duplicate', name: settings.name ?? existing.name, message, changes };
}

function labelsOf({ group, tags, colour, favourite }: ImportSettings): ImportLabels {
  const labels: ImportLabels = {};
  if (group !== undefined) labels.group = group;
  if (tags !== undefined) labels.tags = tags;
  if (colour !== undefined) labels.colour = colour;
  if (favourite !== undefined) labels.favourite = favourite;
  return labels;
}

/** What the preview says of a certificate the file gives for a panel already in the list, which is never imported. */
function ignoredPin(imported: CertificateInfo | null | undefined, kept: CertificateInfo | null): string | null {
  if (imported === undefined || sameValue(imported, kept)) return null;
  const file = imported === null ? 'trusts no certificate' : `trusts ${imported.sha256}`;
  const here = kept === null ? 'trusts no certificate of its own' : `keeps trusting ${kept.sha256}`;
  return `The file ${file} for it; that was not imported, and the panel ${here}. Trust changes only from the panel's own settings.`;
}

function sameValue(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, index) => item === b[index]);
  if (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null)
    return (a as { sha256?: unknown }).sha256 === (b as { sha256?: unknown }).sha256;
  return a === b;
}
