import { PanelError } from '../../../shared/contract/errors.ts';
import type { Panel } from '../../../shared/types.ts';
import type { PanelRecordChange } from '../storage/panel-registry.ts';
import { writeRecorder } from '../activity/activity-methods.ts';
import { endSessionsAtPanels } from './panel-logout.ts';
import type { RequestSettings } from '../easypanel/panel-endpoints.ts';
import type { PanelChanges } from '../context/change-batchers.ts';
import type { Emit, FolderAccess, PresentedCertificates } from '../context/core-context.ts';
import { toPanel, type DataFolder } from '../storage/data-folder.ts';
import type { SessionCache } from './session-cache.ts';
import { attemptWrite, find, type SessionReader } from './session-reader.ts';

/** The panel as the operator asked to sign in: a log out or a new address since then drops the sign-in. */
export interface SignInFor {
  epoch: number;
  baseUrl: string;
}

/** What keeping a sign-in touches: what was read with the old token is forgotten, the window told, the replaced session ended at the panel (a write, recorded). */
export interface SignInKeeping {
  now(): Date;
  cache: Pick<SessionCache, 'forget'>;
  reader: Pick<SessionReader, 'forget'>;
  changes: PanelChanges;
  request: RequestSettings;
  emit: Emit;
}

/** What a sign-in uses (a log in, an API token): the folder, where a refused certificate is noted, and what keeping it touches. */
export interface SignInParts extends FolderAccess, SignInKeeping {
  presented: PresentedCertificates;
}

/**
 * Keeps the token of a sign-in the panel just accepted (a log in's, or an API token), with `change`
 * to the panel's record, and answers the panel as this leaves it, once on disk. A sign-in it
 * replaces (a log in again before the session ended) is replaced only here, after the new one
 * succeeded; that old session is then ended at the panel, best-effort and unwaited (an API token is
 * not: a log out does not end one).
 */
export async function keepSignIn(
  keeping: SignInKeeping,
  current: DataFolder,
  id: string,
  token: string,
  signInFor: SignInFor,
  change: PanelRecordChange,
): Promise<Panel> {
  const { now, cache, reader, changes, request } = keeping;
  const { registry, vault } = current;
  const before = find(current, id);
  const replaced = vault.token(id, before.baseUrl);
  const replacedEndsAt = current.history.get(id).sessionExpiresAt;
  const storage = await vault.save(id, token, now(), signInFor);
  // Removed while the request was under way: nothing was stored for it.
  const record = find(current, id);
  if (storage === null) {
    throw new PanelError(
      'NOT_SIGNED_IN',
      'The panel was signed out or its address changed while logging in, so that log in was dropped. Log in again.',
    );
  }
  try {
    const saving = registry.update(id, { ...change, tokenStorage: storage, signedOutReason: null });
    cache.forget(id);
    reader.forget(id);
    current.history.record(id, { sessionExpiresAt: null });
    // The panel as this sign-in leaves it (calls made while it is written do not change the
    // answer, as they could not when writing held main up), answered once it is on disk.
    const answer = toPanel(find(current, id), current);
    await saving;
    // Told to the window only now: its write may wait for a group of sign-ins (panel-registry.ts),
    // and a panel must not say signed in before it is on disk.
    changes.changed(id);
    if (replaced !== undefined && replaced !== token && before.tokenKind !== 'api-token') {
      // The panel's answer (or its silence) changes nothing here: the old token is forgotten already.
      void endSessionsAtPanels(
        request,
        [{ record, token: replaced, endsAt: replacedEndsAt }],
        writeRecorder(keeping, current.activity),
      ).catch(() => undefined);
    }
    return answer;
  } catch (error) {
    // A sign-in that fails must not leave the panel signed in behind the operator's back. The
    // token is gone from memory at once; a deletion that could not be written stays due.
    await attemptWrite(() => vault.forget(id));
    changes.changed(id);
    throw error;
  }
}
