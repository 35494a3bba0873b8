import { createHash } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { isRecord } from '../common/guards.ts';
import { TimeSlicer } from '../common/time-slices.ts';
import { compactListText } from './json-text.ts';

/**
 * The journal beside a large document (`panels.journal` beside `panels.json`): the changes saved
 * since the document was last written whole, one line each, so that a save costs the size of its
 * change rather than the size of the document.
 *
 * Every line is `<CRC-32 of the rest, 8 hex digits> <JSON>`. The first is the header, naming the
 * SHA-256 of the document file the journal follows: a journal that does not follow the file on
 * disk (the file was written whole since, by this version or an older one) is stale and ignored.
 * A line is acknowledged only once it is on disk (fdatasync), so a line cut by a crash or a full
 * disk is always the last one, and is dropped.
 */

/** Entries of one of the document's collections set (added, or replaced where they are) or removed, by key. */
export interface DocumentChange {
  /** The document's field holding the collection: a list of objects with an `id`, or an object by key. */
  field: string;
  set: readonly (readonly [string, unknown])[];
  remove: readonly string[];
}

const JOURNAL_FORMAT = 1;
const NEWLINE = 0x0a;

export function fileHash(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** A journal line in pieces, to be written in turn, and its size in bytes. */
export interface JournalLine {
  pieces: string[];
  bytes: number;
}

const checksum = (crc: number) => `${crc.toString(16).padStart(8, '0')} `;

export function headerLine(follows: string): string {
  const body = JSON.stringify({ journal: JOURNAL_FORMAT, follows });
  return `${checksum(crc32(body))}${body}\n`;
}

/**
 * The line of `change`, built and summed in time slices: an import's change holds thousands of
 * panels, megabytes of text. Null when it would pass `maxBytes` (the document is then written whole).
 */
export async function changeLine(change: DocumentChange, maxBytes = Infinity): Promise<JournalLine | null> {
  // A character is at least a byte: past maxBytes characters, the line is past maxBytes bytes.
  const set = await compactListText(change.set, maxBytes);
  if (set === null) return null;
  const body = [`{"field":${JSON.stringify(change.field)},"remove":${JSON.stringify(change.remove)},"set":`, ...set, '}'];
  const slicer = new TimeSlicer();
  let crc = 0;
  let bytes = 0;
  for (const piece of body) {
    crc = crc32(piece, crc);
    bytes += Buffer.byteLength(piece);
    if (slicer.due) await slicer.nextSlice();
  }
  return { pieces: [checksum(crc), ...body, '\n'], bytes: bytes + 10 };
}

/** The JSON of a line whose checksum holds, or undefined. */
function readLine(bytes: Uint8Array): unknown {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  if (!/^[0-9a-f]{8} /.test(text)) return undefined;
  const body = text.slice(9);
  if (crc32(body) !== Number.parseInt(text.slice(0, 8), 16)) return undefined;
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

function readChange(value: unknown): DocumentChange | undefined {
  if (!isRecord(value) || typeof value.field !== 'string' || !Array.isArray(value.set) || !Array.isArray(value.remove)) return undefined;
  // Assigned as a property of the document below: never its prototype.
  if (value.field === '__proto__') return undefined;
  if (!value.remove.every((key) => typeof key === 'string')) return undefined;
  if (!value.set.every((entry) => Array.isArray(entry) && entry.length === 2 && typeof entry[0] === 'string')) return undefined;
  return { field: value.field, set: value.set as [string, unknown][], remove: value.remove as string[] };
}

export interface JournalRead {
  changes: DocumentChange[];
  /** Bytes up to the end of the last good line: where the next line goes. */
  goodBytes: number;
  /** A bad line with good ones after it: not a cut tail but damage, and the changes after it are lost. */
  damaged: boolean;
}

/** The changes of a journal that follows the document of hash `follows`; null when it follows another (stale) or has no header. */
export function readJournal(bytes: Uint8Array, follows: string): JournalRead | null {
  const lines: { start: number; end: number }[] = [];
  for (let start = 0; start < bytes.length; ) {
    const end = bytes.indexOf(NEWLINE, start);
    // A last line without its newline was cut before it was written whole.
    if (end < 0) break;
    lines.push({ start, end });
    start = end + 1;
  }
  const [first, ...rest] = lines;
  const header = first ? readLine(bytes.subarray(first.start, first.end)) : undefined;
  if (!isRecord(header) || header.journal !== JOURNAL_FORMAT || header.follows !== follows) return null;
  const read: JournalRead = { changes: [], goodBytes: first!.end + 1, damaged: false };
  for (const [index, { start, end }] of rest.entries()) {
    const change = readChange(readLine(bytes.subarray(start, end)));
    if (change) {
      read.changes.push(change);
      read.goodBytes = end + 1;
      continue;
    }
    read.damaged = rest.slice(index + 1).some((later) => readChange(readLine(bytes.subarray(later.start, later.end))) !== undefined);
    break;
  }
  return read;
}

/**
 * `document` with `changes` applied in turn, on the raw JSON (before any schema is checked). Each
 * collection is turned into a map once, so replaying costs the journal's size plus the list's.
 */
export function replay(document: Record<string, unknown>, changes: readonly DocumentChange[]): Record<string, unknown> {
  const collections = new Map<string, { list: boolean; entries: Map<string, unknown> }>();
  for (const change of changes) {
    let collection = collections.get(change.field);
    if (!collection) {
      const value = document[change.field];
      // The journal follows a document this code wrote, which always has its collection.
      if (!Array.isArray(value) && !isRecord(value)) continue;
      collection = { list: Array.isArray(value), entries: new Map() };
      const items = Array.isArray(value) ? value.map((item): [string | null, unknown] => [idOf(item), item]) : Object.entries(value);
      // An item without an id, or a second one with the same id (damage), keeps a key no id can take, and its place.
      for (const [index, [key, item]] of items.entries())
        collection.entries.set(key === null || collection.entries.has(key) ? `\u0000${index}` : key, item);
      collections.set(change.field, collection);
    }
    for (const key of change.remove) collection.entries.delete(key);
    for (const [key, item] of change.set) collection.entries.set(key, item);
  }
  const replayed = { ...document };
  for (const [field, { list, entries }] of collections) {
    replayed[field] = list ? [...entries.values()] : Object.fromEntries(entries);
  }
  return replayed;
}

function idOf(item: unknown): string | null {
  return isRecord(item) && typeof item.id === 'string' ? item.id : null;
}
