import { signInAccount, writeAccountOf } from '../storage/panel-record.ts';
import { PanelError } from '../../../shared/contract/errors.ts';
import type { ActivityWhat } from '../../../shared/types.ts';
import { normaliseAddress } from '../common/address.ts';
import type { ActivityLog, FinishedOutcome } from '../storage/activity-log.ts';
import { storageReason } from '../storage/document-store.ts';
import type { PanelRecord } from '../storage/panel-registry.ts';
import type { CoreMethods, Emit, FolderAccess } from '../context/core-context.ts';

/** The activity log as the contract lists it. */
export function activityMethods({ state }: FolderAccess): CoreMethods<'listActivity'> {
  return {
    async listActivity({ panelId, limit } = {}) {
      const { activity } = await state();
      return { entries: activity.list({ panelId, limit }), bound: activity.bound };
    },
  };
}

/** What a write came to, for the log: the outcome and the words to keep (shortened and cleaned by the log). */
export interface WriteOutcome {
  outcome: FinishedOutcome;
  message: string | null;
}

export interface RecordOptions {
  /** What the request knows that must never be kept: the token, a password. */
  secrets: readonly string[];
  /**
   * What to do when the entry cannot be written before the request: `refuse` (the default) sends
   * nothing and throws; `send` sends it anyway, for a write that matters more than its record
   * (a log out, ending a session at the panel).
   */
  unrecorded?: 'refuse' | 'send';
  /** Reads a failure its own way (a 401 to a log out is what was asked); null falls back to `failureOutcome`. */
  judge?: (error: unknown) => WriteOutcome | null;
  /** The account it goes as, when not the panel's account for writes (a log out of another account); null: not known. */
  account?: string | null;
}

/** Sends one write to a panel, recorded on disk before it is sent and again with its outcome once the panel answered. */
export type WriteRecorder = <T>(record: PanelRecord, what: ActivityWhat, send: () => Promise<T>, options: RecordOptions) => Promise<T>;

/**
 * The account a write goes as: none told for a log in (it signs in as the account it names, not
 * the last one), the panel's own sign-in for a log out, the panel's account for writes otherwise.
 */
function accountOfWrite(record: PanelRecord, what: ActivityWhat): string | null {
  if (what.action === 'logIn' || what.action === 'logInWithApiToken') return null;
  if (what.action === 'logOut' || what.action === 'logOutApiToken') return signInAccount(record);
  return writeAccountOf(record).label;
}

/**
 * The recorder of writes into `activity`; the window hears `activityChanged` at each step. A
 * failure to record the outcome is not the write's failure: the entry then reads `unknown` at the
 * next start, which is true of what the log knows.
 */
export function writeRecorder({ emit }: { emit: Emit }, activity: ActivityLog): WriteRecorder {
  const changed = (panelId: string) => {
    try {
      emit({ type: 'activityChanged', panelId });
    } catch {
      // A window that is gone must not fail a write.
    }
  };
  return async <T>(
    record: PanelRecord,
    what: ActivityWhat,
    send: () => Promise<T>,
    { secrets, unrecorded = 'refuse', judge, account }: RecordOptions,
  ): Promise<T> => {
    const start = {
      panelId: record.id,
      panelName: record.name,
      panelAddress: normaliseAddress(record.baseUrl, { allowPlainHttp: record.allowPlainHttp }).display,
      account: (account === undefined ? accountOfWrite(record, what) : account) ?? undefined,
      what,
    };
    const entry = await activity.begin(start).catch((error: unknown) => {
      if (unrecorded === 'send') return null;
      throw new PanelError(
        'STORAGE',
        `Nothing was sent: Paneldeck could not record it in the activity log first (${storageReason(error)}).`,
        {
          cause: error,
        },
      );
    });
    if (entry) changed(record.id);
    const finish = async (ended: WriteOutcome) => {
      if (!entry) return;
      // Through a promise: a throw while the message is cleaned must not become the write's failure either.
      await Promise.resolve()
        .then(() => activity.finish(entry.id, ended.outcome, ended.message, secrets))
        .catch(() => undefined);
      changed(record.id);
    };
    let value: T;
    try {
      value = await send();
    } catch (error) {
      await finish(judge?.(error) ?? failureOutcome(error));
      throw error;
    }
    await finish({ outcome: 'ok', message: null });
    return value;
  };
}

/** A failure as the log says it: a request that timed out may have reached the panel, so its outcome is not known. */
export function failureOutcome(error: unknown): WriteOutcome {
  if (!(error instanceof PanelError)) return { outcome: 'failed', message: 'Paneldeck failed before the panel answered.' };
  if (error.code === 'TIMEOUT') return { outcome: 'unknown', message: `${error.message} The panel may have done it: check.` };
  return { outcome: 'failed', message: error.message };
}
