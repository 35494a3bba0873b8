import { z } from 'zod';
import { DEFAULT_LOGIN_PATH, normaliseLoginPath } from '../common/address.ts';
import { holds, isRecord } from '../common/guards.ts';
import { withGenerationField } from '../../../shared/generations.ts';
import type { DocumentStore } from './document-store.ts';
import { readPanelRecord, type PanelRecord } from './panel-record.ts';
import { copyAside, isEmptyDocument, keepBackup, readOrMoveAside } from './store-problems.ts';

/** Reading panels.json at start: older formats upgraded, damage read past and said, a copy kept of whatever was not read. */

/**
 * Format 2 renamed the panel's `account` to `lastEmail`; format 3 added group, tags, colour and
 * favourite; format 4 named the panel's generation `generation` (its 2.33+ value `public`).
 */
export const REGISTRY_VERSION = 4;

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
  3: (panels) => panels.map((panel) => (isRecord(panel) ? withGenerationField(panel) : panel)),
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

export interface LoadedRecords {
  records: PanelRecord[];
  problem: RegistryLoadProblem | null;
  migration: RegistryMigration | null;
}

const documentShape = z.object({ version: z.number().int().min(1), panels: z.array(z.unknown()) });

export function loadRecords(store: DocumentStore, now: Date): LoadedRecords {
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
  return { records, problem: withJournalDamage(problem, store.damagedJournal()), migration };
}

function withJournalDamage(problem: RegistryLoadProblem | null, copy: string | null): RegistryLoadProblem | null {
  if (copy === null) return problem;
  const message =
    'The latest changes to the panel list could not all be read (its journal is damaged), so some of them may be missing. A copy of the journal was kept.';
  return problem ? { message: `${problem.message} ${message}`, movedTo: problem.movedTo } : { message, movedTo: copy };
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
