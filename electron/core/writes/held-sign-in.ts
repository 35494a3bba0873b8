import { PanelError } from '../../../shared/contract/errors.ts';
import type { Generation } from '../../../shared/types.ts';
import type { DataFolder } from '../storage/data-folder.ts';
import type { PanelRecord } from '../storage/panel-registry.ts';
import { writeAccountOf } from '../storage/panel-record.ts';

/** A panel as a plan was made for it: what must still hold right before each of its requests leaves. */
export interface PlannedSignIn {
  panelId: string;
  panelName: string;
  baseUrl: string;
  /** The token of the account the write goes as (`writeAccountOf`), and its key in the vault. */
  token: string;
  accountKey: string;
  generation: Generation;
}

/**
 * Throws CHANGED_BEFORE_SENDING, saying what changed, unless the panel is still in the list at the
 * planned address, signed in with the planned token, and speaks the planned generation: a log out,
 * a removal, a new address, a new log in or an upgrade after the confirmation sends nothing.
 */
export function checkAsPlanned(state: Pick<DataFolder, 'registry' | 'vault'>, planned: PlannedSignIn): void {
  const record = state.registry.get(planned.panelId);
  const notSent = (why: string) => new PanelError('CHANGED_BEFORE_SENDING', `Not sent: ${why} after you confirmed.`);
  if (!record) throw notSent(`${planned.panelName} was removed from the list`);
  if (record.baseUrl !== planned.baseUrl) throw notSent(`${planned.panelName}'s address changed`);
  if (writeAccountOf(record).key !== planned.accountKey) throw notSent(`the account ${planned.panelName}'s writes go as changed`);
  const token = state.vault.token(planned.accountKey, record.baseUrl);
  if (token === undefined) throw notSent(`${planned.panelName} was signed out`);
  if (token !== planned.token) throw notSent(`${planned.panelName} was signed in again`);
  if (record.generation !== planned.generation) throw notSent(`${planned.panelName} was found to speak another Easypanel generation`);
}

/**
 * Refuses any write to a panel marked read-only (READ_ONLY): no plan names it, nothing is asked or
 * sent. Every write's plan goes through here (`plannedSignIn`, and the console's calls).
 */
export function refuseReadOnly(record: Pick<PanelRecord, 'name' | 'readOnly'>): void {
  if (record.readOnly) throw new PanelError('READ_ONLY', readOnlyReason(record.name));
}

/** Why a read-only panel is left out of a write, in the operator's words. */
export const readOnlyReason = (name: string): string =>
  `${name} is read-only in Paneldeck: no write is planned for it. Turn read-only off in its Settings to change it.`;

/**
 * The sign-in a plan is made under: the panel as it is now, with the token its account for writes
 * has now (its own sign-in's, or the other account chosen for writes); never a read-only panel's.
 * NOT_SIGNED_IN when that account's sign-in ended.
 */
export function plannedSignIn(state: Pick<DataFolder, 'vault'>, record: PanelRecord): PlannedSignIn {
  refuseReadOnly(record);
  const account = writeAccountOf(record);
  const token = state.vault.token(account.key, record.baseUrl);
  if (token === undefined) {
    throw new PanelError(
      'NOT_SIGNED_IN',
      account.key === record.id
        ? `You are not signed in to ${record.name}. Log in first.`
        : `Nothing was planned: ${record.name}'s writes go as ${account.label ?? 'another account'}, whose sign-in ended. Sign it in again in the panel's Session, or choose another account for writes.`,
    );
  }
  return {
    panelId: record.id,
    panelName: record.name,
    baseUrl: record.baseUrl,
    token,
    accountKey: account.key,
    generation: record.generation,
  };
}

/**
 * Refuses a run across panels that names panels no longer in the list (removed since it was
 * chosen): nothing is read or sent. `chosen` says what was chosen ("of the services chosen").
 */
export function refuseRemovedPanels(state: Pick<DataFolder, 'registry'>, panelIds: readonly string[], chosen: string): void {
  const removed = new Set(panelIds.filter((panelId) => state.registry.get(panelId) === undefined));
  if (removed.size === 0) return;
  const which = removed.size === 1 ? `a panel ${chosen} is` : `${removed.size} panels ${chosen} are`;
  throw new PanelError('INVALID_INPUT', `Nothing was sent: ${which} no longer in the list (removed since?).`);
}
