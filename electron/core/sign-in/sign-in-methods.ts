import { plural } from '../../../shared/counts.ts';
import { API_TOKEN_KEPT_MESSAGE, PanelError, type ErrorInfo } from '../../../shared/contract/errors.ts';
import { storageReason } from '../storage/document-store.ts';
import type { PanelRecord, PanelRecordChange } from '../storage/panel-registry.ts';
import { writeRecorder } from '../activity/activity-methods.ts';
import type { PanelSignIns } from './panel-log-in.ts';
import { endSessionsAtPanels, type EndedSignIn } from './panel-logout.ts';
import type { RequestSettings } from '../easypanel/panel-endpoints.ts';
import type { PanelChanges } from '../context/change-batchers.ts';
import type { CoreMethods, Emit, FolderAccess } from '../context/core-context.ts';
import { toPanel, type DataFolder } from '../storage/data-folder.ts';
import type { SessionCache } from './session-cache.ts';
import { attemptWrite, find, type SessionReader } from './session-reader.ts';

/** What ending a sign-in here touches: what was read with it is forgotten, its requests under way stop, the window is told. */
export interface SignInEnding {
  cache: Pick<SessionCache, 'forget'>;
  reader: Pick<SessionReader, 'ended'>;
  changes: PanelChanges;
}

/** What log in and log out use: the folder, the sign-ins' ending, and the panels' requests (a log out at the panel is a write, recorded). */
export interface SignOutParts extends FolderAccess, SignInEnding {
  request: RequestSettings;
  emit: Emit;
  /**
   * Resolves when a log out ending the sessions of these panels at the panels may go ahead; throws
   * NOT_CONFIRMED when it may not (a production panel among them, not confirmed in main's own
   * confirmation: writes/log-out-plan.ts). Without it none is asked.
   */
  confirmLogOut?: (records: readonly PanelRecord[]) => Promise<void>;
}

/** Log in and log out: one log in request at a time per panel, and sign-ins ended durably, here first, then at the panel. */
export function signInMethods(
  parts: SignOutParts,
  signIns: PanelSignIns,
): CoreMethods<'logIn' | 'logInWithApiToken' | 'logOut' | 'logOutPanels'> {
  const { state, request, changes } = parts;

  /**
   * After the sign-ins ended here: asks each panel to end its session, and where one could not,
   * says so on the panel (its session stays open at the panel until it expires).
   */
  async function endAtPanels(current: DataFolder, held: readonly EndedSignIn[]): Promise<ReadonlyMap<string, ErrorInfo>> {
    const notes = await endSessionsAtPanels(request, held, writeRecorder(parts, current.activity));
    if (notes.size === 0) return notes;
    // Only where no new sign-in began meanwhile: a note about the old session must not stand beside a new one.
    const still = new Map(
      [...notes].filter(([id]) => current.registry.get(id) && !current.vault.token(id, current.registry.get(id)!.baseUrl)),
    );
    await attemptWrite(() => current.registry.updateMany(new Map([...still].map(([id, note]) => [id, { signedOutReason: note }]))));
    for (const id of still.keys()) changes.changed(id);
    return still;
  }

  /**
   * The log outs under way, by panel: a log out returns only once every earlier log out of its
   * panels has ended its session at the panel too, so that no request with an ended sign-in's
   * token leaves after a log out of that panel returned (two log outs at once: the second found
   * nothing left to end here, and used to return while the first was still asking the panel).
   */
  const underWay = new Map<string, Promise<unknown>>();
  async function afterEarlierLogOuts<T>(ids: readonly string[], logOut: () => Promise<T>): Promise<T> {
    const earlier = ids.flatMap((id) => underWay.get(id) ?? []);
    const mine = logOut();
    const settled = mine.then(
      () => undefined,
      () => undefined,
    );
    for (const id of ids) underWay.set(id, settled);
    void settled.then(() => {
      for (const id of ids) if (underWay.get(id) === settled) underWay.delete(id);
    });
    await Promise.all(earlier);
    return mine;
  }

  return {
    async logIn(panelId, { email, password, code, rememberMe }) {
      return signIns.withPassword(panelId, { email, password, code, rememberMe });
    },

    async logInWithApiToken(panelId, { token }) {
      return signIns.withApiToken(panelId, token);
    },

    logOut(panelId) {
      return afterEarlierLogOuts([panelId], () => logOutOne(panelId));
    },

    async logOutPanels(requested) {
      return afterEarlierLogOuts([...new Set(requested)], () => logOutMany(requested));
    },
  };

  /**
   * A log out of a panel signed in with an API token sends nothing (it stays valid at the panel),
   * so it is recorded here on its own: the activity log lists every log out Paneldeck made.
   */
  async function recordApiTokenLogOuts(current: DataFolder, records: readonly PanelRecord[]): Promise<void> {
    const record = writeRecorder(parts, current.activity);
    const kept = records.filter((one) => one.tokenKind === 'api-token' && current.vault.token(one.id, one.baseUrl) !== undefined);
    await Promise.all(
      kept.map((one) => record(one, { action: 'logOutApiToken' }, () => Promise.resolve(), { secrets: [], unrecorded: 'send' })),
    );
  }

  /**
   * The sign-ins a log out of `ids` ends when a production panel is among them: asked about first,
   * so a no leaves every panel as it was; null when nothing is asked. Worked out on the folder
   * already read, with no step of its own: any other log out ends in the same step as it always
   * did, so a log in asked after it is never dropped by it (the fleet race test's rule).
   */
  function toConfirm(current: DataFolder, ids: readonly string[]): PanelRecord[] | null {
    // Every sign-in that ends, an API token's too: a red panel's asks whatever it is signed in with.
    const ending = ids
      .flatMap((id) => current.registry.get(id) ?? [])
      .filter((record) => current.vault.token(record.id, record.baseUrl) !== undefined);
    return parts.confirmLogOut && ending.some((record) => record.colour === 'red') ? ending : null;
  }

  async function logOutOne(panelId: string) {
    let current = await state();
    const asked = toConfirm(current, [panelId]);
    if (asked) {
      await parts.confirmLogOut!(asked);
      current = await state();
    }
    const record = find(current, panelId);
    const apiTokenLogOuts = recordApiTokenLogOuts(current, [record]);
    const held = heldSignIns(current, [record]);
    const ending = endSignIn(parts, current, record, loggedOutChange(current, record), `signed out of ${record.name}`);
    // The panel as this log out leaves it (a log in started meanwhile does not change the answer; see logInOnce).
    const answer = toPanel(current.registry.get(panelId) ?? record, current);
    await ending;
    await apiTokenLogOuts;
    const note = (await endAtPanels(current, held)).get(panelId);
    return note ? { ...answer, signedOutReason: note } : answer;
  }

  async function logOutMany(requested: readonly string[]) {
    let current = await state();
    const asked = toConfirm(current, [...new Set(requested)]);
    if (asked) {
      await parts.confirmLogOut!(asked);
      current = await state();
    }
    const records = [...new Set(requested)].flatMap((id) => current.registry.get(id) ?? []);
    const apiTokenLogOuts = recordApiTokenLogOuts(current, records);
    const held = heldSignIns(current, records);
    const ending = endSignIns(
      parts,
      current,
      records,
      (record) => loggedOutChange(current, record),
      `signed out of ${plural(records.length, 'panel')}`,
    );
    const answer = records.map((record) => toPanel(current.registry.get(record.id) ?? record, current));
    await ending;
    await apiTokenLogOuts;
    const notes = await endAtPanels(current, held);
    return answer.map((panel) => {
      const note = notes.get(panel.id);
      return note ? { ...panel, signedOutReason: note } : panel;
    });
  }
}

/**
 * What a log out says on a panel signed in with an API token: a log out does not end an API token
 * (only revoking it in Easypanel does), so the panel is not asked to, and the operator is told.
 */
export const API_TOKEN_LOGGED_OUT: ErrorInfo = { code: 'NOT_SIGNED_IN', message: API_TOKEN_KEPT_MESSAGE };

/** The change a log out makes to the panel's record, by what it was signed in with. */
function loggedOutChange(current: DataFolder, record: PanelRecord): PanelRecordChange {
  const signedIn = current.vault.token(record.id, record.baseUrl) !== undefined;
  return { signedOutReason: signedIn && record.tokenKind === 'api-token' ? API_TOKEN_LOGGED_OUT : null };
}

/**
 * The tokens of these panels' sign-ins, taken before they end, to ask the panels to end their
 * sessions. API tokens are not among them: a log out does not end one (docs/easypanel-api.md).
 */
export function heldSignIns(current: DataFolder, records: readonly PanelRecord[]): EndedSignIn[] {
  return records.flatMap((record) => {
    if (record.tokenKind === 'api-token') return [];
    const token = current.vault.token(record.id, record.baseUrl);
    return token ? [{ record, token, endsAt: current.history.get(record.id).sessionExpiresAt }] : [];
  });
}

/**
 * Ends a panel's sign-in for good: in memory at once, and on disk in both the token store and
 * the panel list (with `change`), either of which is enough for the next start to leave the
 * panel signed out. Throws `STORAGE` only when neither could be written; `listFailure` says
 * whether the rest of `change` was saved.
 */
export async function endSignIn(
  ending: SignInEnding,
  current: DataFolder,
  record: PanelRecord,
  change: PanelRecordChange,
  what: string,
): Promise<{ record: PanelRecord; listFailure: PanelError | null }> {
  const { listFailure } = await endSignIns(ending, current, [record], change, what);
  return { record: current.registry.get(record.id) ?? record, listFailure };
}

/** `endSignIn` for several panels, with one write of each file. */
export async function endSignIns(
  { cache, reader, changes }: SignInEnding,
  current: DataFolder,
  records: readonly PanelRecord[],
  /** The same for every panel, or each panel's own. */
  change: PanelRecordChange | ((record: PanelRecord) => PanelRecordChange),
  what: string,
): Promise<{ listFailure: PanelError | null }> {
  const ids = records.map((record) => record.id);
  // Both files' changes are made in memory before either write is waited for: a call made
  // meanwhile sees the sign-in ended and the list changed together.
  const forgetting = attemptWrite(() => current.vault.forget(...ids));
  for (const id of ids) {
    cache.forget(id);
    // Its requests under way stop, and what was read with it (its services) is gone from the window.
    reader.ended(id);
    current.history.record(id, { sessionExpiresAt: null });
    changes.changed(id);
  }
  const ended = new Map(
    records.map((record) => [record.id, { ...(typeof change === 'function' ? change(record) : change), tokenStorage: null }]),
  );
  const listFailure = await attemptWrite(() => current.registry.updateMany(ended));
  const forgetFailure = await forgetting;
  if (forgetFailure && listFailure) {
    throw new PanelError(
      'STORAGE',
      `You are ${what} for now, but Paneldeck could not record it on disk (${storageReason(listFailure)}). ` +
        'Until it can, a restart may bring the sign-in back; Paneldeck records it with its next save. ' +
        "Check free disk space and the folder's permissions.",
      { cause: listFailure },
    );
  }
  return { listFailure };
}
