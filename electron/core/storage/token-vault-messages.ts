import type { ErrorInfo } from '../../../shared/contract/errors.ts';
import type { ProtectionLevel } from '../../../shared/types.ts';

/** Why a saved sign-in was not read at start, in the operator's words. */

export type WeakOrMemory = Exclude<ProtectionLevel, 'keyring'>;

export function damagedFileReason(what: string, copyPath: string): { info: ErrorInfo; summary: string; copyPath: string } {
  return {
    info: {
      code: 'TOKEN_UNREADABLE',
      message: `The saved sign-ins could not be read: the token store ${what}. It was kept at ${copyPath}. Log in again.`,
    },
    summary: `The saved sign-ins could not be read: the token store ${what}. Panels that were signed in need a new log in. The file was kept untouched.`,
    copyPath,
  };
}

export function damagedEntryReason(damagedCopy: string | null): ErrorInfo {
  return {
    code: 'TOKEN_UNREADABLE',
    message: `The saved sign-in was damaged on disk (the token store as it was is kept at ${damagedCopy}). Log in again.`,
  };
}

export function unavailableReason(level: WeakOrMemory, savedUnder: string, now: string): ErrorInfo {
  const changed =
    savedUnder !== now ? `Secure storage on this system changed from ${savedUnder} to ${now} since the token was saved. ` : '';
  const why =
    level === 'weak'
      ? `${now} is a key built into the app, not a keyring, and storing tokens with weak protection is off`
      : 'secure storage (the system keyring) is not available now';
  const choice = level === 'weak' ? ', unless you turn on "Store tokens with weak protection on this system" in Preferences' : '';
  return {
    code: 'ENCRYPTION_UNAVAILABLE',
    message: `${changed}The saved sign-in is not read: ${why}. It stays on disk, untouched, for when the keyring is back. Log in again; the new token stays in memory until Paneldeck closes${choice}.`,
  };
}

export function undecryptableReason(savedUnder: string, now: string): ErrorInfo {
  const why =
    savedUnder !== now
      ? `secure storage on this system changed from ${savedUnder} to ${now} since the token was saved`
      : 'the system keyring may have been changed or reset';
  return {
    code: 'TOKEN_UNREADABLE',
    message: `The saved sign-in could not be decrypted: ${why}. It is kept on disk, untouched. Log in again.`,
  };
}

export const ADDRESS_CHANGED_REASON: ErrorInfo = {
  code: 'NOT_SIGNED_IN',
  message: 'The saved sign-in was for another address than the panel has now, so it was not used. Log in again.',
};
