import { z } from 'zod';
import { errorCodes } from '../../shared/errors.ts';
import { normaliseAddress, normaliseLoginPath } from './address.ts';
import { copyAside, isEmptyDocument, readOrMoveAside, storageError, type DocumentStore } from './document-store.ts';

const errorInfoSchema = z.object({ code: z.enum(errorCodes), message: z.string() });

const panelRecordSchema = z.object({
  id: z.uuid(),
  name: z.string().min(1),
  baseUrl: z.string().refine(isNormalisedBaseUrl),
  loginPath: z.string().refine((path) => isValid(() => normaliseLoginPath(path) === path)),
  tokenField: z.string().nullable(),
  createdAt: z.iso.datetime(),
  account: z.string().nullable(),
  /** Where the token of the last log in went; tells "kept in memory only" apart after a restart. */
  tokenStorage: z.enum(['encrypted', 'memory']).nullable(),
  signedOutReason: errorInfoSchema.nullable(),
  lastCheck: z
    .discriminatedUnion('ok', [
      z.object({ at: z.iso.datetime(), ok: z.literal(true) }),
      z.object({ at: z.iso.datetime(), ok: z.literal(false), error: errorInfoSchema }),
    ])
    .nullable(),
});

export type PanelRecord = z.infer<typeof panelRecordSchema>;

export const REGISTRY_VERSION = 1;

/** What loading found wrong with the file; the panels that could be read are kept. */
export interface RegistryLoadProblem {
  message: string;
  movedTo: string | null;
}

/**
 * The panel list, kept in memory and written whole on every change. A change is written first
 * and applied in memory after, so a failed write changes nothing.
 */
export class PanelRegistry {
  readonly #store: DocumentStore;
  #records: PanelRecord[];
  readonly loadProblem: RegistryLoadProblem | null;

  constructor(store: DocumentStore, now: Date) {
    this.#store = store;
    const loaded = loadRecords(store, now);
    this.#records = loaded.records;
    this.loadProblem = loaded.problem;
  }

  list(): readonly PanelRecord[] {
    return this.#records;
  }

  get(id: string): PanelRecord | undefined {
    return this.#records.find((record) => record.id === id);
  }

  insert(record: PanelRecord): void {
    this.#commit([...this.#records, record]);
  }

  /** Applies `change` to the panel; does nothing when the panel is gone. */
  update(id: string, change: Partial<Omit<PanelRecord, 'id'>>): PanelRecord | undefined {
    const current = this.get(id);
    if (!current) return undefined;
    const next = { ...current, ...change };
    this.#commit(this.#records.map((record) => (record.id === id ? next : record)));
    return next;
  }

  remove(id: string): void {
    this.#commit(this.#records.filter((record) => record.id !== id));
  }

  #commit(records: PanelRecord[]): void {
    try {
      this.#store.write({ version: REGISTRY_VERSION, panels: records });
    } catch (error) {
      throw storageError(`save the panel list to ${this.#store.path}`, error);
    }
    this.#records = records;
  }
}

function loadRecords(store: DocumentStore, now: Date): { records: PanelRecord[]; problem: RegistryLoadProblem | null } {
  const read = readOrMoveAside(store, now);
  if (!read.ok) {
    return {
      records: [],
      problem: { message: 'The panel list was not valid JSON. It was moved aside and the list starts empty.', movedTo: read.movedTo },
    };
  }
  const document = read.document;
  if (isEmptyDocument(document)) return { records: [], problem: null };

  const shape = z.object({ version: z.literal(REGISTRY_VERSION), panels: z.array(z.unknown()) }).safeParse(document);
  if (!shape.success) {
    return {
      records: [],
      problem: {
        message: 'The panel list has a format this version does not know. A copy was kept and the list starts empty.',
        movedTo: copyAside(store.path, now),
      },
    };
  }
  const records: PanelRecord[] = [];
  for (const candidate of shape.data.panels) {
    const parsed = panelRecordSchema.safeParse(candidate);
    if (parsed.success && !records.some((record) => record.id === parsed.data.id)) records.push(parsed.data);
  }
  const skipped = shape.data.panels.length - records.length;
  if (skipped === 0) return { records, problem: null };
  return {
    records,
    problem: {
      message: `${skipped} damaged panel entr${skipped === 1 ? 'y was' : 'ies were'} skipped. A copy of the file was kept.`,
      movedTo: copyAside(store.path, now),
    },
  };
}

function isNormalisedBaseUrl(baseUrl: string): boolean {
  return isValid(() => normaliseAddress(baseUrl).baseUrl === baseUrl);
}

function isValid(check: () => boolean): boolean {
  try {
    return check();
  } catch {
    return false;
  }
}
