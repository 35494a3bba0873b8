import type { Generation } from './types.ts';

/**
 * The API console (issue 25): a panel's own catalogue of operations (its `/api/openapi.json`), one
 * operation called with the token filled in by main, and the same read across many panels. Types
 * and limits only, free of zod: the window imports them too (the schemas are in console-schemas.ts).
 */

/** A JSON Schema subset as main passes it to the window: `$ref`s already inlined up to `SCHEMA_DEPTH_MAX`, a cut marked `CUT_SCHEMA_MARK`. */
export type InputSchema = Record<string, unknown>;

/** Which of Easypanel's generations the catalogue was read in (docs/easypanel-api.md): tRPC up to 2.30, the RPC layer 2.31–2.32, the public API from 2.33. */
export type { Generation };

export interface CatalogueOperation {
  /** The name the operator searches and calls by: tRPC/RPC `ns.proc` (e.g. "projects.listProjectsAndServices"), the public API its flat name ("listProjectsAndServices"). */
  name: string;
  /** read: a query / GET; write: a mutation / POST that changes the panel. */
  kind: 'read' | 'write';
  summary: string | null;
  /** The input's schema, or null when the operation takes none. */
  input: InputSchema | null;
}

export interface Catalogue {
  panelId: string;
  /** The panel's version the catalogue was read for (cache key with the panel), null when unknown. */
  version: string | null;
  generation: Generation;
  readAt: string;
  operations: CatalogueOperation[];
  /** Operations left out as unsound (wrong shapes, paths outside /api, cycles too deep), with why: shown, never silently dropped. */
  skipped: { name: string; reason: string }[];
}

export interface OperationCall {
  operation: string;
  /** Validated in main against the operation's input schema before anything is sent. */
  input: unknown;
  /**
   * What the window showed the operation as. Main refuses a call shown as a read that its own
   * catalogue has as a write (an upgrade changed it): nothing is sent. A write is asked about in
   * main's own confirmation whatever the window says.
   */
  shownAs?: 'read' | 'write';
}

export interface OperationAnswer {
  panelId: string;
  operation: string;
  /** HTTP status of the panel's answer. */
  status: number;
  ms: number;
  bytes: number;
  /** The answer's JSON (the generation's envelope removed), the panel's token replaced wherever it appeared. Null for an empty/non-JSON body (then `text` holds up to `ANSWER_TEXT_MAX_CHARS` of it). */
  body: unknown;
  text: string | null;
  /** The answer was cut (over `ANSWER_MAX_BYTES`): `body` is null and `text` holds its start. */
  truncated: boolean;
}

/** One panel's outcome in a read across panels. */
export interface PanelOperationResult {
  panelId: string;
  /** `unknown`: a write was sent and its answer did not come; the panel may have done it. */
  outcome: 'done' | 'failed' | 'unknown' | 'cancelled';
  status: number | null;
  ms: number | null;
  /**
   * The value at the chosen JSON path (`field`) as a table cell: a number, boolean or string as it
   * is, an object or list as its JSON text; a string longer than `CELL_VALUE_MAX_CHARS` is cut and
   * ends in "…". Null when absent, when no field was chosen, or when the panel failed.
   */
  value: string | number | boolean | null;
  /** The error's message when failed, never a secret. */
  message: string | null;
}

/** Options of a run across panels: the JSON path whose value each row shows (field-path.ts syntax), and whether a write may run. */
export interface OperationRunOptions {
  field: string | null;
  allowWrite?: boolean;
}

/** Largest catalogue read from a panel: a real one (~375 operations) is well under 1 MiB; past this it is refused unread. */
export const CATALOGUE_MAX_BYTES = 16 * 1024 * 1024;
/** Most operations kept from one catalogue; the rest are skipped with a reason. */
export const CATALOGUE_MAX_OPERATIONS = 5_000;
/** How deep `$ref`s are inlined into an input schema (each `$ref` counts one level, as does each nesting); deeper is cut and marked. */
export const SCHEMA_DEPTH_MAX = 12;
/** Most schema nodes one operation's resolved input may hold; a larger one is skipped as unsound. */
export const SCHEMA_NODES_MAX = 5_000;
/** The key a cut schema node carries (a cycle or past `SCHEMA_DEPTH_MAX`): the window shows it as "any JSON", main accepts any value there. */
export const CUT_SCHEMA_MARK = 'x-paneldeck-cut';

/** Largest answer of one call read whole; larger ones are cut to their start (`truncated`). */
export const ANSWER_MAX_BYTES = 4 * 1024 * 1024;
/** Most characters of a non-JSON, empty-envelope or cut answer kept in `text`. */
export const ANSWER_TEXT_MAX_CHARS = 64 * 1024;
/** Largest input one call may carry (as JSON). */
export const INPUT_MAX_BYTES = 1024 * 1024;
/** Longest operation name accepted. */
export const OPERATION_NAME_MAX = 200;
/** A table cell's value: a string longer than this, or a container whose JSON is, is shortened to text ending in "…". */
export const CELL_VALUE_MAX_CHARS = 200;
