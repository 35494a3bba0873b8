import { TimeSlicer } from '../common/time-slices.ts';

/**
 * JSON text of documents too big to serialise in one go on main's event loop (the panel list of a
 * fleet is megabytes): built item by item, in time slices, so that main answers between slices.
 * The text is the same, character for character, as one `JSON.stringify` would give.
 */

/**
 * Joins the pieces a slice made (from `from` on) into one string, in place. Thousands of small
 * strings kept until the write are what each young-generation GC copies: a 20,000-panel list made
 * scavenges of 15–30 ms, longer than main may be held. One joined string per slice is mostly in
 * the large-object space, which a scavenge does not copy, and the small ones die young.
 */
function sealSlice(pieces: string[], from: number): void {
  if (pieces.length - from < 2) return;
  pieces.splice(from, pieces.length - from, pieces.slice(from).join(''));
}

/** A plain object or array whose items are worth serialising one at a time. */
function isCollection(value: unknown): value is unknown[] | Record<string, unknown> {
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value !== 'object' || value === null || 'toJSON' in value) return false;
  const prototype = Object.getPrototypeOf(value);
  return (prototype === Object.prototype || prototype === null) && Object.keys(value).length > 0;
}

/**
 * `JSON.stringify(document, null, '\t') + '\n'` as a list of pieces to write in turn. Items of the
 * document's arrays and objects are serialised one at a time and indented to their depth, which is
 * what `JSON.stringify` does too: a string holds no raw newline, so only layout newlines move.
 */
export async function documentText(document: Record<string, unknown>): Promise<string[]> {
  const slicer = new TimeSlicer();
  const members: string[][] = [];
  for (const [key, value] of Object.entries(document)) {
    if (!isCollection(value)) {
      const text = JSON.stringify(value, null, '\t');
      // Left out by JSON.stringify too: undefined, functions, symbols.
      if (text !== undefined) members.push([`\t${JSON.stringify(key)}: ${text.replaceAll('\n', '\n\t')}`]);
      continue;
    }
    const array = Array.isArray(value);
    const pieces = [`\t${JSON.stringify(key)}: ${array ? '[' : '{'}\n`];
    let sealed = pieces.length;
    let first = true;
    for (const [itemKey, item] of array ? value.entries() : Object.entries(value)) {
      const text = JSON.stringify(item, null, '\t');
      if (text === undefined && !array) continue;
      const label = array ? '' : `${JSON.stringify(itemKey)}: `;
      pieces.push(`${first ? '' : ',\n'}\t\t${label}${(text ?? 'null').replaceAll('\n', '\n\t\t')}`);
      first = false;
      if (slicer.due) {
        sealSlice(pieces, sealed);
        sealed = pieces.length;
        await slicer.nextSlice();
      }
    }
    sealSlice(pieces, sealed);
    pieces.push(first ? '' : '\n', `\t${array ? ']' : '}'}`);
    // An object whose values are all left out is `{}` to JSON.stringify.
    members.push(first ? [`\t${JSON.stringify(key)}: {}`] : pieces);
  }
  if (members.length === 0) return ['{}\n'];
  return ['{\n', ...members.flatMap((pieces, index) => (index === 0 ? pieces : [',\n', ...pieces])), '\n}\n'];
}

/** Items serialised before the list's size is foreseen from them. */
const FORESIGHT_ITEMS = 256;

/**
 * `JSON.stringify(value)` of a large list, in slices: `[` then the items' text joined by commas,
 * then `]`. Null as soon as the text would pass `maxChars`, foreseen from the first items: a
 * change too big for the journal (an import) is not serialised twice.
 */
export async function compactListText(items: readonly unknown[], maxChars = Infinity): Promise<string[] | null> {
  const slicer = new TimeSlicer();
  const pieces = ['['];
  let sealed = pieces.length;
  // The brackets, and the items as they come.
  let chars = 2;
  for (let index = 0; index < items.length; index++) {
    const piece = `${index === 0 ? '' : ','}${JSON.stringify(items[index]) ?? 'null'}`;
    pieces.push(piece);
    chars += piece.length;
    if (chars > maxChars || (index + 1 === FORESIGHT_ITEMS && (chars / FORESIGHT_ITEMS) * items.length > maxChars)) return null;
    if (slicer.due) {
      sealSlice(pieces, sealed);
      sealed = pieces.length;
      await slicer.nextSlice();
    }
  }
  sealSlice(pieces, sealed);
  pieces.push(']');
  return pieces;
}
