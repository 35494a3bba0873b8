import { constants } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { PanelError } from '../../../shared/contract/errors.ts';
import { formatBytes } from '../../../shared/sizes.ts';
import { CSV_HEADER, EXPORT_FORMAT, EXPORT_VERSION, IMPORT_MAX_BYTES, IMPORT_MAX_ENTRIES } from '../../../shared/transfer.ts';
import { checkJsonShape, closingQuote } from '../common/json-shape.ts';
import { isRecord } from '../common/guards.ts';
import { csvColumnNamed, type ImportText, type RawEntry, readCsv } from './import-csv.ts';

export type { ImportText, RawEntry } from './import-csv.ts';

/**
 * Turns an import's bytes or text into entries (CSV in import-csv.ts): one object of fields per panel, with the line it
 * starts on. What the fields mean is checked later, entry by entry (import-entry.ts); here only the
 * whole text can be refused, with a message that says what it is and what Paneldeck reads.
 */

const WHAT_IS_READ = `Paneldeck imports its own JSON export, a CSV with the columns ${CSV_HEADER}, or text with one address per line.`;

function refuse(message: string): never {
  throw new PanelError('INVALID_INPUT', message);
}

/** What a refusal says a file should be, and what to do when it is too big. */
export interface TextFileWords {
  whatIsRead: string;
  tooBigHint: string;
  /** What Paneldeck does with the file: "import" or "open". */
  verb: string;
}

const IMPORT_WORDS: TextFileWords = {
  whatIsRead: WHAT_IS_READ,
  tooBigHint: 'Export fewer panels at a time, or split the file.',
  verb: 'import',
};

/**
 * Reads the file the operator chose, refusing before reading what is not a regular file or is
 * bigger than an import takes. Asynchronous, and opened without blocking: opening a named pipe
 * for reading waits for a writer, which once held main for good.
 */
export function readImportFile(path: string): Promise<{ name: string; text: string }> {
  return readTextFile(path, IMPORT_WORDS);
}

/** `readImportFile` for any text the operator chose to open (UTF-8, at most IMPORT_MAX_BYTES), its refusals in `words`. */
export async function readTextFile(path: string, words: TextFileWords): Promise<{ name: string; text: string }> {
  const name = basename(path);
  const cannotOpen = (error: unknown): never =>
    refuse(
      `${name} could not be opened (${(error as NodeJS.ErrnoException).code ?? 'unknown error'}). Check that it exists and that you may read it.`,
    );
  const before = await stat(path).catch(cannotOpen);
  if (!before.isFile()) refuse(`${name} is not a file. ${words.whatIsRead}`);
  // Windows has no O_NONBLOCK (and no named pipes among files); elsewhere a pipe put in the
  // file's place after the check above still does not block the open.
  const file = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0)).catch(cannotOpen);
  try {
    const stats = await file.stat();
    if (!stats.isFile()) refuse(`${name} is not a file. ${words.whatIsRead}`);
    if (stats.size > IMPORT_MAX_BYTES) tooBig(name, stats.size, words);
    // One byte more than allowed: a file that grew since the stat is still caught.
    const buffer = Buffer.alloc(Math.min(stats.size, IMPORT_MAX_BYTES) + 1);
    let length = 0;
    for (let read = -1; read !== 0 && length < buffer.length; length += read) {
      ({ bytesRead: read } = await file.read(buffer, length, buffer.length - length, null));
    }
    if (length > IMPORT_MAX_BYTES) tooBig(name, length, words);
    return { name, text: decodeText(buffer.subarray(0, length), name, words) };
  } finally {
    await file.close();
  }
}

function tooBig(name: string, bytes: number, words: TextFileWords): never {
  refuse(`${name} is ${formatBytes(bytes)}; Paneldeck ${words.verb}s files up to ${formatBytes(IMPORT_MAX_BYTES)}. ${words.tooBigHint}`);
}

/** The bytes as text, when they are UTF-8 text (a byte-order mark is dropped); refused otherwise. */
export function decodeImportBytes(bytes: Uint8Array, name: string): string {
  return decodeText(bytes, name, IMPORT_WORDS);
}

function decodeText(bytes: Uint8Array, name: string, words: TextFileWords): string {
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    refuse(`${name} is UTF-16 text. Save it as UTF-8 and ${words.verb} it again.`);
  }
  // Text has no NUL; an archive, a spreadsheet or an image has many, early.
  if (bytes.subarray(0, 8192).includes(0)) refuse(`${name} is not a text file (it holds binary data). ${words.whatIsRead}`);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    refuse(`${name} is not UTF-8 text. Save it as UTF-8 (in a spreadsheet: CSV UTF-8) and ${words.verb} it again.`);
  }
}

/** Reads the entries of `text`, in whichever of the three formats it is. */
export function readImportText(text: string, name: string): ImportText {
  const body = text.replace(/^\uFEFF/, '');
  const start = body.search(/\S/);
  if (start === -1) refuse(`${name} is empty. ${WHAT_IS_READ}`);
  const read = looksLikeJson(body, start) ? readJson(body, name) : looksLikeCsv(body) ? readCsv(body) : readLines(body);
  if (read.entries.length === 0) refuse(`${name} holds no panels. ${WHAT_IS_READ}`);
  if (read.entries.length > IMPORT_MAX_ENTRIES) {
    refuse(
      `${name} holds ${read.entries.length.toLocaleString('en')} entries; Paneldeck imports up to ${IMPORT_MAX_ENTRIES.toLocaleString('en')} at a time. Split it.`,
    );
  }
  return read;
}

/** An object, or an array (of arrays, objects or strings, or spaced out): not "[::1]:8443", an IPv6 address. */
function looksLikeJson(text: string, start: number): boolean {
  if (text[start] === '{') return true;
  return text[start] === '[' && /^\[(\s|[[{"\]]|$)/.test(text.slice(start, start + 2));
}

/** An export is four levels deep and about 15 values a panel; this leaves room for tens of thousands. */
const IMPORT_JSON_LIMITS = { maxDepth: 64, maxValues: IMPORT_MAX_ENTRIES * 40 };

function readJson(text: string, name: string): ImportText {
  // Before JSON.parse, which would hold main for seconds on millions of values or nested levels.
  const shape = checkJsonShape(text, IMPORT_JSON_LIMITS);
  if (!shape.ok) {
    refuse(
      shape.exceeded === 'depth'
        ? `${name} is nested more than ${shape.limit} levels deep, so it is not a Paneldeck export (which is 4 deep). ${WHAT_IS_READ}`
        : `${name} holds more than ${shape.limit.toLocaleString('en')} JSON values, more than ${IMPORT_MAX_ENTRIES.toLocaleString('en')} panels could. Split it.`,
    );
  }
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    refuse(`${name} is not valid JSON (${(error as Error).message.slice(0, 200)}). Fix it, or export the panels again.`);
  }
  // A bare list of panels is read too: what a colleague's script would write.
  let panels: unknown = document;
  if (!Array.isArray(document)) {
    if (!isRecord(document) || document.format !== EXPORT_FORMAT)
      refuse(`${name} is JSON but not a Paneldeck export: it has no "format": "${EXPORT_FORMAT}". ${WHAT_IS_READ}`);
    const version = document.version;
    if (typeof version !== 'number' || !Number.isInteger(version) || version < 1)
      refuse(`${name} has no valid "version", so it cannot be read. Export the panels again.`);
    if (version > EXPORT_VERSION) {
      refuse(
        `${name} was exported by a newer Paneldeck (format version ${version}; this one reads up to ${EXPORT_VERSION}). Update Paneldeck to import it.`,
      );
    }
    panels = document.panels;
    if (!Array.isArray(panels)) refuse(`${name} has no list of "panels". Export the panels again.`);
  }
  const list = panels as unknown[];
  const lines = elementLines(text, !Array.isArray(document));
  const entries = list.map((fields, index) => ({
    line: lines[index] ?? 1,
    // An entry that is not an object has no address: the entry check says so, on its line.
    fields: isRecord(fields) ? fields : { address: fields },
  }));
  return { format: 'json', entries, notes: [] };
}

/**
 * The line each element of the panel list starts on: the root array's elements, or those of the
 * root object's `"panels"`. A scan of the text, as JSON.parse keeps no positions.
 */
function elementLines(text: string, inPanelsKey: boolean): number[] {
  const lines: number[] = [];
  const stack: string[] = [];
  let line = 1;
  let key: string | null = null;
  let targetDepth = -1;
  let expectingValue = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (char === '\n') line++;
    if (char === ' ' || char === '\t' || char === '\r' || char === '\n' || char === ':') continue;
    if (stack.length === targetDepth && expectingValue && char !== ']' && char !== ',') {
      lines.push(line);
      expectingValue = false;
    }
    if (char === '"') {
      const end = closingQuote(text, index);
      if (stack.length === 1 && stack[0] === '{') key = text.slice(index + 1, end);
      index = end;
    } else if (char === '[' || char === '{') {
      stack.push(char);
      const isTarget = char === '[' && (inPanelsKey ? stack.length === 2 && key === 'panels' : stack.length === 1);
      if (isTarget) {
        targetDepth = stack.length;
        expectingValue = true;
      }
    } else if (char === ']' || char === '}') {
      if (stack.length === targetDepth) targetDepth = -1;
      stack.pop();
    } else if (char === ',' && stack.length === targetDepth) {
      expectingValue = true;
    }
  }
  return lines;
}

/**
 * Text with one address per line; blank lines, lines starting with # and a first line that only
 * names the column ("address", "domain") are skipped.
 */
function readLines(text: string): ImportText {
  const entries: RawEntry[] = [];
  let first = true;
  text.split(/\r\n|\n|\r/).forEach((raw, index) => {
    const address = raw.trim();
    if (address === '' || address.startsWith('#')) return;
    const header = first && csvColumnNamed(address) === 'address';
    first = false;
    if (!header) entries.push({ line: index + 1, fields: { address } });
  });
  return { format: 'text', entries, notes: [] };
}

/**
 * A comma on any line that is not blank or a comment: an address never has one, so a pasted list
 * of addresses with one "name,https://host" line is a CSV (whose one-cell rows are addresses),
 * not text whose line would read as the address "name,https://host".
 */
function looksLikeCsv(text: string): boolean {
  // Line by line, never split whole: splitting twenty thousand lines held main as long as reading them.
  const lines = /([^\r\n]*)(?:\r\n|\n|\r|$)/y;
  for (let match = lines.exec(text); match; match = lines.lastIndex < text.length ? lines.exec(text) : null) {
    const line = match[1]!;
    if (line.includes(',') && !line.trimStart().startsWith('#')) return true;
  }
  return false;
}
