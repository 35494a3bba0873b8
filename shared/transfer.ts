import type { Panel, PanelSettings } from './types.ts';

/**
 * The file Paneldeck exports panels to and imports them from: what an operator typed and chose
 * for each panel, never a token, a password, an email or check history.
 *
 * ```json
 * { "format": "paneldeck.panels", "version": 2, "exportedAt": "2026-11-25T10:00:00.000Z",
 *   "panels": [{ "name": "Production", "address": "panel.example.com", "allowPlainHttp": false,
 *                "group": "Acme", "tags": ["eu"], "colour": "red", "favourite": true,
 *                "generation": "public", "loginPath": "/login", "sessionPath": "/getSession",
 *                "tokenField": null, "trustedCertificate": null }] }
 * ```
 */
export const EXPORT_FORMAT = 'paneldeck.panels';
/** Format 2 renamed the field of the panel's generation and its 2.33+ value (`withGenerationField` in generations.ts): import reads both forms. */
export const EXPORT_VERSION = 2;

/**
 * One panel of the file: its settings (every field `PANEL_FIELDS` calls a setting) and its address
 * as the operator reads it (Unicode host, port when not the default). The trusted certificate is
 * not a secret (its fingerprint and names); the first exports wrote only `trustedCertificateSha256`,
 * which import still reads.
 */
export interface ExportedPanel extends PanelSettings {
  address: string;
}

export interface ExportDocument {
  format: typeof EXPORT_FORMAT;
  version: typeof EXPORT_VERSION;
  exportedAt: string;
  panels: ExportedPanel[];
}

/** The export of `panels`, field by field: nothing is copied that is not named here. */
export function exportDocument(panels: readonly Panel[], exportedAt: Date): ExportDocument {
  return {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exportedAt: exportedAt.toISOString(),
    panels: panels.map((panel) => ({
      name: panel.name,
      address: panel.address,
      allowPlainHttp: panel.allowPlainHttp,
      group: panel.group,
      tags: [...panel.tags],
      colour: panel.colour,
      favourite: panel.favourite,
      readOnly: panel.readOnly,
      notes: panel.notes,
      generation: panel.generation,
      loginPath: panel.loginPath,
      sessionPath: panel.sessionPath,
      tokenField: panel.tokenField,
      keepSignedIn: panel.keepSignedIn,
      trustedCertificate: panel.trustedCertificate && { ...panel.trustedCertificate },
    })),
  };
}

/** What an export did: `path` is null when the operator cancelled the save dialog. */
export interface ExportResult {
  path: string | null;
  count: number;
}

/**
 * The columns a CSV import reads, each under the names a header row may give it (case aside):
 * the first name is the one the dialog and the messages show, as the JSON export spells it. The
 * one list the reader and every text about the columns are built from.
 */
export const CSV_COLUMNS = {
  name: ['name'],
  address: ['address', 'domain', 'url', 'host'],
  group: ['group'],
  tags: ['tags'],
  colour: ['colour', 'color'],
  favourite: ['favourite', 'favorite'],
  allowPlainHttp: ['allowPlainHttp', 'plain http', 'plainHttp'],
} as const satisfies Partial<Record<keyof ExportedPanel, readonly string[]>>;
export type CsvColumn = keyof typeof CSV_COLUMNS;

/** The columns of a CSV without a header row, in their order. */
export const HEADERLESS_CSV_COLUMNS: readonly CsvColumn[] = ['name', 'address', 'group', 'tags'];

/** "name,address,…": the header row that names every column read. */
export const CSV_HEADER = Object.keys(CSV_COLUMNS).join(',');

/** The largest file or pasted text an import reads: 10,000 exported panels take about 4 MiB. */
export const IMPORT_MAX_BYTES = 16 * 1024 * 1024;
/** The most entries one import takes. */
export const IMPORT_MAX_ENTRIES = 20_000;

/** Where an import's text comes from: a file main asks for in the open dialog, or pasted text. */
export type ImportSource = { from: 'file' } | { from: 'text'; text: string };

export type ImportFormat = 'json' | 'csv' | 'text';

/**
 * What the import would do with one entry: add it; update a panel already in the list whose
 * settings differ (`changes` names them); nothing, because that panel has the same settings;
 * or nothing, because the entry is invalid (`message` says why, as Add panel would).
 */
export type ImportRowStatus = 'new' | 'duplicate' | 'same' | 'invalid';

export interface ImportRow {
  /** Where the entry starts in the file or text, from 1. */
  line: number;
  status: ImportRowStatus;
  /** The name it would get; when invalid, the name as written, or null when it gives none. */
  name: string | null;
  /** As the operator reads it when valid, else as written (shortened). */
  address: string;
  /** Invalid: why. Duplicate or same: which panel it is. */
  message: string | null;
  /** Duplicate: the settings an update would change ("name", "group", "tags"…). */
  changes: string[];
  /** The entry asks to trust a certificate by its fingerprint: worth a look before importing. */
  trustsCertificate: boolean;
  /** The panel would be reached over plain http:// on another computer ("Not encrypted"). */
  plainHttp: boolean;
  /** The labels the entry gives (valid entries only), for the preview to show. */
  labels: ImportLabels;
  /**
   * An entry refused only because its address is plain http:// on another computer: what the row
   * would be with unencrypted HTTP allowed, which the operator may choose for it (ImportChoice.plainHttpRows).
   */
  ifPlainHttp?: ImportRow;
}

/** Group, tags, colour and favourite, as an entry gives them; a label it leaves out is absent. */
export type ImportLabels = Partial<Pick<PanelSettings, 'group' | 'tags' | 'colour' | 'favourite'>>;

export interface ImportPreview {
  /** Names this preview for `applyImport`; only the newest preview can be applied. */
  id: string;
  /** The file's name, or "Pasted text". */
  source: string;
  format: ImportFormat;
  rows: ImportRow[];
  counts: Record<ImportRowStatus, number>;
  /** What the reader noticed about the whole text (an ignored column). */
  notes: string[];
}

/**
 * Duplicates are skipped, or take the settings the import gives them; `plainHttpRows` are the
 * rows (positions in the preview's `rows`, of those with `ifPlainHttp`) the operator allowed
 * unencrypted HTTP for: positions, as a one-line JSON file has many entries on one line.
 */
export interface ImportChoice {
  duplicates: 'skip' | 'update';
  plainHttpRows?: number[];
}

export interface ImportResult {
  added: number;
  updated: number;
  /** Duplicates skipped, and entries with nothing to change. */
  unchanged: number;
  invalid: number;
  /** The panels added, by id (all signed out): what the window offers to log in to next. */
  addedIds: string[];
}
