/**
 * Text the window made (a table as CSV, saved console requests as JSON) written to a file the
 * operator chooses in main's save dialog, or read from one chosen in the open dialog. The window
 * never sees a path it could write to, only the one the operator chose, to say where it went.
 */

/** The kinds of file the window saves and opens: the extension and the dialog's filter. */
export const TEXT_FILE_KINDS = ['csv', 'json'] as const;
export type TextFileKind = (typeof TEXT_FILE_KINDS)[number];

/** Largest text saved (in characters) or opened (in bytes): a table of 10,000 rows fits many times over. */
export const TEXT_FILE_MAX_BYTES = 16 * 1024 * 1024;

export interface TextFileToSave {
  /** The name the save dialog offers, without folder, ending in `.csv` or `.json`. */
  name: string;
  text: string;
}

/** Where the text went; null when the operator cancelled the dialog. */
export interface SavedTextFile {
  path: string | null;
  bytes: number;
}

/** An opened file's text; null when the operator cancelled the dialog. */
export interface OpenedTextFile {
  name: string;
  text: string;
}
