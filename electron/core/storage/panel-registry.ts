import { z } from 'zod';
import { DEFAULT_LOGIN_PATH, normaliseLoginPath } from '../common/address.ts';
import { copyAside, isEmptyDocument, keepBackup, readOrMoveAside, storageError, type DocumentStore } from './document-store.ts';
import { readPanelRecord, type PanelRecord, type PanelRecordChange } from './panel-record.ts';
import { holds } from '../common/guards.ts';

export type { PanelRecord, PanelRecordChange };

/** Format 2 renamed the panel's `account` to `lastEmail`; format 3 added group, tags, colour and favourite. */
export const REGISTRY_VERSION = 3;

/**
 * Each older format's step to the next: `migrations[n]` turns a format-`n` panel list into
 * format `n + 1`. Steps see raw JSON; the current schema checks the result.
 */
const migrations: Record<number, (panels: unknown[]) => unknown[]> = {
  1: (panels) =>
    panels.map((panel) => {
      if (typeof panel !== 'object' || panel === null || Array.isArray(panel)) return panel;
      const { account, ...rest } = panel as Record<string, unknown>;
      return { ...rest, lastEmail: account ?? null };
    }),
  2: (panels) =>
    panels.map((panel) => {
      if (typeof panel !== 'object' || panel === null || Array.isArray(panel)) return panel;
      return { ...panel, group: null, tags: [], colour: null, favourite: false };
    }),
};

/** What loading found wrong with the file; the panels that could be read are kept. */
export interface RegistryLoadProblem {
  message: string;
  movedTo: string | null;
}

/** An older format was read and upgraded; the file as it was is kept at `backupPath`. */
export interface RegistryMigration {
  fromVersion: number;
  backupPath: string;
}

/**
 * The panel list, kept in memory and written whole on every change. A change is written first
 * and applied in memory after, so a failed write changes nothing.
 */
export class PanelRegistry {
  readonly #store: DocumentStore;
  #records: PanelRecord[];
  /** By id, so a lookup costs the same at ten thousand panels as at ten. */
  #byId = new Map<string, PanelRecord>();
  readonly loadProblem: RegistryLoadProblem | null;
  readonly migration: RegistryMigration | null;

  constructor(store: DocumentStore, now: Date) {
    this.#store = store;
    const loaded = loadRecords(store, now);
    this.#records = loaded.records;
    this.#byId = new Map(loaded.records.map((record) => [record.id, record]));
    this.loadProblem = loaded.problem;
    this.migration = loaded.migration;
    if (loaded.migration) this.#saveMigrated();
  }

  list(): readonly PanelRecord[] {
    return this.#records;
  }

  get(id: string): PanelRecord | undefined {
    return this.#byId.get(id);
  }

  /** The panel whose API is at `baseUrl`, if any. */
  findByBaseUrl(baseUrl: string): PanelRecord | undefined {
    return this.#records.find((record) => record.baseUrl === baseUrl);
  }

  insert(record: PanelRecord): void {
    this.#commit([...this.#records, record]);
  }

  /** Applies `change` to the panel; does nothing when the panel is gone. */
  update(id: string, change: PanelRecordChange): PanelRecord | undefined {
    if (!this.get(id)) return undefined;
    this.updateMany(new Map([[id, change]]));
    return this.get(id);
  }

  /** Applies several panels' changes in one write: at start, ten thousand panels cost one write, not ten thousand. */
  updateMany(changes: ReadonlyMap<string, PanelRecordChange>): void {
    this.insertAndUpdate([], changes);
  }

  /**
   * Forgets check results an older version kept in the list (they now live in the check
   * history), in memory only: the next change writes the list without them.
   */
  dropLegacyChecks(): void {
    // Files written since check results moved out hold none: nothing to rebuild at start.
    if (this.#records.every((record) => record.lastCheck === null)) return;
    this.#records = this.#records.map((record) => (record.lastCheck === null ? record : { ...record, lastCheck: null }));
    this.#byId = new Map(this.#records.map((record) => [record.id, record]));
  }

  /**
   * Adds `additions` and applies `changes` in one write: an import, or a change to many panels,
   * lands whole or not at all.
   */
  insertAndUpdate(additions: readonly PanelRecord[], changes: ReadonlyMap<string, PanelRecordChange>): void {
    if (additions.length === 0 && changes.size === 0) return;
    const updated = this.#records.map((record) => {
      const change = changes.get(record.id);
      return change ? { ...record, ...change } : record;
    });
    this.#commit(additions.length === 0 ? updated : [...updated, ...additions]);
  }

  remove(id: string): void {
    this.removeMany(new Set([id]));
  }

  /** Removes every panel in `ids` in one write. */
  removeMany(ids: ReadonlySet<string>): void {
    this.#commit(this.#records.filter((record) => !ids.has(record.id)));
  }

  /**
   * Writes the upgraded list at once, so the upgrade runs once. The backup is already on disk;
   * if this write fails, the old file stays as it was and the next change writes the new format.
   */
  #saveMigrated(): void {
    try {
      this.#commit(this.#records);
    } catch {
      // Nothing is lost: the list is in memory and the original file is untouched.
    }
  }

  #commit(records: PanelRecord[]): void {
    try {
      this.#store.write({ version: REGISTRY_VERSION, panels: records });
    } catch (error) {
      throw storageError(`save the panel list to ${this.#store.path}`, error);
    }
    this.#records = records;
    this.#byId = new Map(records.map((record) => [record.id, record]));
  }
}

interface LoadedRecords {
  records: PanelRecord[];
  problem: RegistryLoadProblem | null;
  migration: RegistryMigration | null;
}

const documentShape = z.object({ version: z.number().int().min(1), panels: z.array(z.unknown()) });

function loadRecords(store: DocumentStore, now: Date): LoadedRecords {
  const read = readOrMoveAside(store, now);
  if (!read.ok) {
    return {
      records: [],
      problem: {
        message: 'The panel list was not valid JSON, so Paneldeck started with an empty list. The damaged file was moved aside, untouched.',
        movedTo: read.movedTo,
      },
      migration: null,
    };
  }
  const document = read.document;
  if (isEmptyDocument(document)) return { records: [], problem: null, migration: null };

  const shape = documentShape.safeParse(document);
  if (!shape.success || shape.data.version > REGISTRY_VERSION) {
    const newer = shape.success
      ? ` It was written by a newer Paneldeck (format ${shape.data.version}; this one reads up to ${REGISTRY_VERSION}).`
      : '';
    return {
      records: [],
      problem: {
        message: `The panel list has a format this version does not know, so Paneldeck started with an empty list.${newer} A copy of the file was kept.`,
        movedTo: copyAside(store.path, now),
      },
      migration: null,
    };
  }
  let panels = shape.data.panels;
  let migration: RegistryMigration | null = null;
  if (shape.data.version < REGISTRY_VERSION) {
    // The file as the older version wrote it is kept before anything is changed.
    migration = { fromVersion: shape.data.version, backupPath: keepBackup(store.path, `v${shape.data.version}-backup`, now) };
    for (let version = shape.data.version; version < REGISTRY_VERSION; version++) panels = migrations[version]!(panels);
  }
  const { records, problem } = parseRecords(panels, store.path, now);
  return { records, problem, migration };
}

function parseRecords(panels: unknown[], path: string, now: Date): Pick<LoadedRecords, 'records' | 'problem'> {
  const records: PanelRecord[] = [];
  const ids = new Set<string>();
  let resetPaths = 0;
  for (const candidate of panels) {
    const safe = withSafeLoginPath(candidate);
    if (safe !== candidate) resetPaths++;
    const record = readPanelRecord(safe);
    if (record && !ids.has(record.id)) {
      ids.add(record.id);
      records.push(record);
    }
  }
  const skipped = panels.length - records.length;
  if (skipped === 0 && resetPaths === 0) return { records, problem: null };
  const what = [
    skipped > 0
      ? `${skipped} damaged panel entr${skipped === 1 ? 'y in the panel list was' : 'ies in the panel list were'} skipped; the other panels are there.`
      : '',
    resetPaths > 0
      ? `${resetPaths} panel${resetPaths === 1 ? ' had a login path' : 's had login paths'} that could lead outside the panel's /api, so ${resetPaths === 1 ? 'it was' : 'they were'} reset to ${DEFAULT_LOGIN_PATH}; check the login path in the panel settings.`
      : '',
  ];
  return {
    records,
    problem: { message: `${what.filter(Boolean).join(' ')} A copy of the file as it was is kept.`, movedTo: copyAside(path, now) },
  };
}

/**
 * A login path accepted by an older version but refused now (an encoded `..` that leaves /api)
 * costs the panel its path, not the panel: the path goes back to the default.
 */
function withSafeLoginPath(candidate: unknown): unknown {
  if (typeof candidate !== 'object' || candidate === null || !('loginPath' in candidate)) return candidate;
  const { loginPath } = candidate as { loginPath: unknown };
  if (typeof loginPath !== 'string' || holds(() => normaliseLoginPath(loginPath) === loginPath)) return candidate;
  return { ...candidate, loginPath: DEFAULT_LOGIN_PATH };
}
