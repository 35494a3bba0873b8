import { FLEET_PANEL_FIELDS, FLEET_SHARED_FIELDS, type FleetFilePanel, type FleetSharedField } from '../../../shared/fleet-file.ts';

/**
 * The three-way merge of a fleet file, field by field, keyed by each panel's base URL:
 * - `base`: the file as this Paneldeck last read or wrote it;
 * - `here`: the file's panels as they are here now (the operator's changes since);
 * - `there`: the file as it is now (others' changes since: a git pull, a sync).
 * A field changed on one side only takes that side's value; changed on both to the same value, it
 * is that value; changed on both to different values, it is a conflict: the file keeps its value
 * and here keeps the operator's until the operator picks one (the preview). A panel added on one
 * side is added on the other; removed there, it is removed here (the operator is told); removed
 * here, it is removed from the file. Pure: no clock, no files.
 */

export type FleetPanels = ReadonlyMap<string, FleetFilePanel>;

export interface FleetConflict {
  baseUrl: string;
  field: FleetSharedField;
  here: unknown;
  there: unknown;
}

export interface FleetMerge {
  /** The file to write (unchanged when nothing here changed). */
  file: Map<string, FleetFilePanel>;
  /** Whether `file` differs from `there`: a write back is due. */
  writeBack: boolean;
  /** What comes here from the file. */
  added: FleetFilePanel[];
  changed: { baseUrl: string; change: Partial<Pick<FleetFilePanel, FleetSharedField>> }[];
  removed: string[];
  conflicts: FleetConflict[];
  /** What to keep as the next merge's base: the file as written, a conflicted field's old base kept so it stays a conflict. */
  nextBase: Map<string, FleetFilePanel>;
}

const same = (a: unknown, b: unknown): boolean =>
  Array.isArray(a) && Array.isArray(b) ? a.length === b.length && a.every((value, index) => value === b[index]) : a === b;

export function mergeFleet(base: FleetPanels, here: FleetPanels, there: FleetPanels): FleetMerge {
  const merge: FleetMerge = { file: new Map(), writeBack: false, added: [], changed: [], removed: [], conflicts: [], nextBase: new Map() };
  const keys = new Set([...base.keys(), ...here.keys(), ...there.keys()]);
  for (const baseUrl of [...keys].sort()) {
    const b = base.get(baseUrl);
    const h = here.get(baseUrl);
    const t = there.get(baseUrl);
    if (!h && !t) continue;
    if (!t) {
      // Removed there (it was in the base): removed here too. Added here (never in the base): into the file.
      if (b) {
        merge.removed.push(baseUrl);
      } else {
        merge.file.set(baseUrl, h!);
        merge.nextBase.set(baseUrl, h!);
      }
      continue;
    }
    if (!h) {
      // Removed here (it was in the base): out of the file. Added there: here too.
      if (b) continue;
      merge.added.push(t);
      merge.file.set(baseUrl, t);
      merge.nextBase.set(baseUrl, t);
      continue;
    }
    const written: FleetFilePanel = { ...t };
    const kept: FleetFilePanel = { ...t };
    let conflicted = false;
    const change: Partial<Record<FleetSharedField, unknown>> = {};
    for (const field of FLEET_SHARED_FIELDS) {
      const [was, mine, theirs] = [b?.[field], h[field], t[field]];
      if (same(mine, theirs)) continue;
      if (b && same(mine, was)) {
        change[field] = theirs;
      } else if (b && same(theirs, was)) {
        (written as unknown as Record<string, unknown>)[field] = mine;
        (kept as unknown as Record<string, unknown>)[field] = mine;
      } else {
        merge.conflicts.push({ baseUrl, field, here: mine, there: theirs });
        conflicted = true;
        // The next merge sees it again as changed on both sides, until the operator picks.
        (kept as unknown as Record<string, unknown>)[field] = was;
      }
    }
    if (Object.keys(change).length > 0) merge.changed.push({ baseUrl, change: change as FleetMerge['changed'][number]['change'] });
    merge.file.set(baseUrl, written);
    // A panel added on both sides that conflicts has no base yet: it stays so until the operator picks.
    if (b || !conflicted) merge.nextBase.set(baseUrl, kept);
  }
  merge.writeBack = merge.file.size !== there.size || [...merge.file].some(([baseUrl, panel]) => !samePanel(panel, there.get(baseUrl)));
  return merge;
}

/** Whether two panels of a file are the same in every field. */
export const samePanel = (a: FleetFilePanel, b: FleetFilePanel | undefined): boolean =>
  b !== undefined && FLEET_PANEL_FIELDS.every((field) => same(a[field], b[field]));

/** Whether two fleets are the same panels, field for field. */
export const samePanels = (a: FleetPanels, b: FleetPanels): boolean =>
  a.size === b.size && [...a].every(([baseUrl, panel]) => samePanel(panel, b.get(baseUrl)));
