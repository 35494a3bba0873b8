import type { ProtectionLevel } from '../../../shared/types.ts';
import { isStrong, type Backend, type Keyrings } from './keyring.ts';
import type { Target } from './world.ts';

/**
 * What the operator should see, as the model keeps it. Where a call fails with STORAGE the
 * outcome is uncertain: the commands then adopt what the core reports, once it passes the
 * safety rules, and what is on disk (`copy`) is always read from tokens.json.
 */

/** Why a panel's sign-in ended without a new log in since: it must never come back on its own. */
export type Ending = 'logOut' | 'remove' | 'address' | 'expired';

/** A saved token in tokens.json: which backend and which key of it encrypted it. */
export interface Copy {
  backend: string;
  /** The keyring's epoch (`Keyrings.epoch`) when it was saved; 0 under the built-in key. */
  keyring: number;
  ciphertext: string;
}

export interface PanelModel {
  /** P1, P2... in the order the run added them: what the trace prints. */
  label: string;
  id: string;
  target: Target;
  signedIn: boolean;
  storage: ProtectionLevel | null;
  /** What tokens.json holds for the panel, readable now or not. */
  copy: Copy | null;
  /** Whether the server still accepts the panel's token (false after `expireAllTokens`). */
  tokenValid: boolean;
  ended: Ending | null;
  /** A session read of the current sign-in succeeded in this run of the app (what getCachedSession may show). */
  sessionRead: boolean;
  /** The fingerprint of the certificate trusted for the panel (its pin), or null. */
  pin: string | null;
  /**
   * The certificate the core last saw the panel present and refused, which trustCertificate
   * accepts: null when none, 'unknown' when calls racing each other leave it unsure.
   */
  presented: string | null | 'unknown';
  /** The tokens the core may hold for the current sign-in: one, or several when log ins raced; none when signed out. */
  held: string[];
}

export interface Model {
  panels: PanelModel[];
  /** Removed for sure: must never reappear. */
  removed: PanelModel[];
  nextLabel: number;
  weak: boolean;
  /**
   * A "weak off" failed with STORAGE while the setting reads off: basic_text copies may still be
   * on disk until a retry, which must finish the job.
   */
  weakCleanupPending: boolean;
  backend: Backend;
}

export function initialModel(backend: Backend): Model {
  return { panels: [], removed: [], nextLabel: 1, weak: false, weakCleanupPending: false, backend };
}

/** Where a token saved now goes. */
export function storageFor(backend: Backend, weak: boolean): ProtectionLevel {
  if (isStrong(backend)) return 'keyring';
  if (backend === 'basic_text' && weak) return 'weak';
  return 'memory';
}

/**
 * Whether a start of the app now reads `copy` (the vault's `open`): a keyring copy only under
 * the very keyring that made it; a copy under the built-in key under any keyring, and under
 * basic_text only when the operator allowed weak protection; nothing without encryption.
 */
export function readable(copy: Copy, backend: Backend, weak: boolean, keyrings: Keyrings): boolean {
  if (backend === 'unavailable') return false;
  if (copy.backend === 'basic_text') return isStrong(backend) || weak;
  return copy.backend === backend && keyrings.epoch(backend) === copy.keyring;
}

/** Whether a start of the app now must sign the panel in (invariant 4). */
export function restoredOnRestart(panel: PanelModel, model: Model, backend: Backend, keyrings: Keyrings): boolean {
  return panel.ended === null && panel.copy !== null && readable(panel.copy, backend, model.weak, keyrings);
}

/** A panel the operator just added (or an import added): signed out, nothing trusted unless the import said so. */
export function newPanelModel(label: string, id: string, target: Target, pin: string | null): PanelModel {
  return {
    label,
    id,
    target,
    signedIn: false,
    storage: null,
    copy: null,
    tokenValid: false,
    ended: null,
    sessionRead: false,
    pin,
    presented: null,
    held: [],
  };
}

/** The copy tokens.json holds now: the one the model knew when the ciphertext is the same, else one saved in this run. */
export function adoptCopy(known: Copy | null, entry: { backend: string; ciphertext: string } | undefined, keyrings: Keyrings): Copy | null {
  if (!entry) return null;
  if (known && known.ciphertext === entry.ciphertext) return known;
  return { backend: entry.backend, keyring: keyrings.epoch(entry.backend), ciphertext: entry.ciphertext };
}

export function describePanel(panel: PanelModel): string {
  const state = panel.signedIn ? `in:${panel.storage}` : 'out';
  const copy = panel.copy ? ` copy:${panel.copy.backend}#${panel.copy.keyring}` : '';
  const ended = panel.ended ? ` ended:${panel.ended}` : '';
  const valid = panel.signedIn && !panel.tokenValid ? ' expired' : '';
  const pin = panel.pin ? ` pin:${panel.pin.slice(0, 5)}` : '';
  return `${panel.label}(${state}${copy}${ended}${valid}${pin})`;
}

export function describeModel(model: Model): string {
  const panels = model.panels.map(describePanel).join(' ') || 'no panels';
  return `backend=${model.backend} weak=${model.weak ? 'on' : 'off'}${model.weakCleanupPending ? ' (cleanup pending)' : ''} ${panels}`;
}
