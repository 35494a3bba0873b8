import type { PanelColour } from './labels.ts';
import type { Generation } from './types.ts';

/**
 * A team's fleet file (`*.paneldeck-fleet.json`): the panels a team shares, kept where the team
 * keeps things (a git working tree, a synced folder), with nothing secret in it: where each panel
 * is and what the team calls it, never a token, a password, a code, an email or an API token.
 * Each person's sign-ins stay in their own data folder.
 *
 * ```json
 * {
 *   "format": "paneldeck.fleet",
 *   "version": 1,
 *   "readOnly": false,
 *   "panels": [
 *     {
 *       "address": "panel.acme.example",
 *       "name": "Acme production",
 *       "group": "Acme",
 *       "tags": ["eu"],
 *       "colour": "red",
 *       "notes": "",
 *       "generation": null,
 *       "allowPlainHttp": false,
 *       "certificateSha256": null,
 *       "readOnly": false
 *     }
 *   ]
 * }
 * ```
 *
 * Written sorted (panels by address, fields in this order), two spaces a level, one field a line,
 * so that a rename is a one-line diff.
 */

export const FLEET_FILE_FORMAT = 'paneldeck.fleet';
export const FLEET_FILE_VERSION = 1;
/** How a fleet file's name ends: what the open dialog offers. */
export const FLEET_FILE_SUFFIX = '.paneldeck-fleet.json';
/** The most panels one file holds, and the longest notes: a team's fleet, not a database. */
export const FLEET_FILE_LIMITS = { panels: 10_000, notesLength: 2000, bytes: 16 * 1024 * 1024 } as const;

/** One panel as the file describes it: the team's fields, nobody's sign-in. */
export interface FleetFilePanel {
  /** As the operator reads it (Unicode host, port when not the default, `http://` only for plain http). */
  address: string;
  name: string;
  group: string | null;
  tags: string[];
  colour: PanelColour | null;
  notes: string;
  /** The API generation when set by hand; null: found out at log in. */
  generation: Generation | null;
  allowPlainHttp: boolean;
  /** The certificate to pin a panel not signed in yet to (SHA-256, as Paneldeck shows it); null: the system's trust. */
  certificateSha256: string | null;
  /** No write plan at all for this panel, from anyone opening the file. */
  readOnly: boolean;
}

export interface FleetDocument {
  format: typeof FLEET_FILE_FORMAT;
  version: typeof FLEET_FILE_VERSION;
  /** Every panel of the file is read-only. */
  readOnly: boolean;
  panels: FleetFilePanel[];
}

/** The fields of a panel entry, in the order written; a file with any other is refused (it would be lost at the next write). */
export const FLEET_PANEL_FIELDS = [
  'address',
  'name',
  'group',
  'tags',
  'colour',
  'notes',
  'generation',
  'allowPlainHttp',
  'certificateSha256',
  'readOnly',
] as const satisfies readonly (keyof FleetFilePanel)[];

/** The fields the team shares: what a change here writes back to the file, and a change there brings here. */
export type FleetSharedField = Exclude<(typeof FLEET_PANEL_FIELDS)[number], 'address'>;

/** Every field but the address, which is a panel's identity in the file. */
export const FLEET_SHARED_FIELDS: readonly FleetSharedField[] = FLEET_PANEL_FIELDS.filter(
  (field): field is FleetSharedField => field !== 'address',
);

/** A field both sides changed apart since Paneldeck last read the file: the file keeps its value, here keeps the operator's. */
export interface FleetFileConflict {
  panelName: string;
  address: string;
  field: FleetSharedField;
  here: string;
  there: string;
}

/** A fleet file Paneldeck follows (`listFleetFiles`). */
export interface FleetFileInfo {
  /** Paneldeck's own id for the file on this machine (a panel's `fleetFile`). */
  id: string;
  path: string;
  /** Its panels in the list here. */
  panels: number;
  readOnly: boolean;
  /** When it was last read whole and sound (ISO 8601); null: never. */
  readAt: string | null;
  /** Why it is not followed now (damaged, a newer format, gone), in words; null when it is. Never written over meanwhile. */
  problem: string | null;
  /** Fields changed both here and there since the last read, kept apart until the operator picks. */
  conflicts: FleetFileConflict[];
  /** Panels the file no longer lists, removed here at its last read (the notice, said once). */
  removed: string[];
  /**
   * Signed-in panels the file pins to another certificate (or to none) than the one trusted here:
   * not taken from the file. The operator compares and trusts it on the panel (its Session tab)
   * before any token goes to it.
   */
  trust: { panelName: string; address: string; fileSha256: string | null }[];
}

/** A file's name as the window shows it: the last part of its path. */
export const fleetFileName = (path: string): string => path.split(/[\\/]/).at(-1) ?? path;
