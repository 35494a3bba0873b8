import { plural } from '../../../shared/counts.ts';
import { parseArguments } from '../../../shared/contract.ts';
import { PanelError, type ErrorInfo } from '../../../shared/errors.ts';
import { logInFindingStyle, type LogInCredentials } from '../http/panel-endpoints.ts';
import { storageReason } from '../storage/document-store.ts';
import type { PanelRecord, PanelRecordChange } from '../storage/panel-registry.ts';
import { LogInQueue } from './login-queue.ts';
import { endSessionsAtPanels, type EndedSignIn } from './panel-logout.ts';
import type { ServiceContext, ServiceMethods } from './service-context.ts';
import { toPanel, type ServiceState } from './service-state.ts';
import { attemptWrite, find } from './session-reader.ts';

/** Log in and log out: one log in request at a time per panel, and sign-ins ended durably, here first, then at the panel. */
export function signInMethods(context: ServiceContext): ServiceMethods<'logIn' | 'logOut' | 'logOutPanels'> {
  const { state, request, now, cache, reader, changes, presented } = context;
  const logIns = new LogInQueue();

  /**
   * After the sign-ins ended here: asks each panel to end its session, and where one could not,
   * says so on the panel (its session stays open at the panel until it expires).
   */
  async function endAtPanels(current: ServiceState, held: readonly EndedSignIn[]): Promise<ReadonlyMap<string, ErrorInfo>> {
    const notes = await endSessionsAtPanels(request, held);
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
   * `generation` and `baseUrl` are the panel's as the operator asked to log in: a new address
   * since then drops this log in before the password is sent, a log out drops its token.
   */
  async function logInOnce(id: string, credentials: LogInCredentials, generation: number, baseUrl: string) {
    const current = await state();
    const { registry, vault } = current;
    const panel = find(current, id);
    // The address decides where the password goes: one typed for the old address is not sent to
    // the new one. (A log out meanwhile is handled after the answer: that token is not kept.)
    if (panel.baseUrl !== baseUrl) {
      throw new PanelError(
        'NOT_SIGNED_IN',
        "The panel's address changed before this log in was sent, so the password was not sent. Log in again.",
      );
    }
    const held = vault.token(id, panel.baseUrl);
    let token: string;
    try {
      token = await logInFindingStyle(request, panel, credentials, held ? [held] : [], async (endpoint) => {
        // Remembered whatever the log in's outcome (a code asked for, a wrong password): the panel
        // speaks this style, and the next attempt goes straight to it.
        if (registry.get(id)?.baseUrl !== baseUrl) return;
        await attemptWrite(() =>
          registry.update(id, { apiStyle: endpoint.apiStyle, loginPath: endpoint.loginPath, sessionPath: endpoint.sessionPath }),
        );
        changes.changed(id);
      });
    } catch (error) {
      // Only while the panel is still at the address that presented it: a move meanwhile made it another server's.
      if (error instanceof PanelError && error.certificate && registry.get(id)?.baseUrl === baseUrl) presented.set(id, error.certificate);
      throw error;
    }
    /**
     * The panel opened a session for a token this log in does not keep (the panel was signed out,
     * moved or removed meanwhile, or the sign-in could not be recorded): it is asked to end it, at
     * the address the token came from, as a removal asks (nobody waits).
     */
    const endDropped = () => {
      const latest = registry.get(id);
      void endSessionsAtPanels(request, [{ record: latest?.baseUrl === panel.baseUrl ? latest : panel, token, endsAt: null }]);
    };
    // A save that fails takes the token back: it is dropped too.
    const storage = await vault.save(id, token, now(), { generation, baseUrl: panel.baseUrl }).catch((error: unknown) => {
      endDropped();
      throw error;
    });
    if (storage === null || !registry.get(id)) endDropped();
    // Removed while the request was under way: nothing was stored for it.
    find(current, id);
    if (storage === null) {
      throw new PanelError(
        'NOT_SIGNED_IN',
        'The panel was signed out or its address changed while logging in, so that log in was dropped. Log in again.',
      );
    }
    try {
      const saving = registry.update(id, { lastEmail: credentials.email, tokenStorage: storage, signedOutReason: null });
      cache.forget(id);
      reader.forget(id);
      current.history.record(id, { sessionExpiresAt: null });
      changes.changed(id);
      // The panel as this log in leaves it (calls made while it is written do not change the
      // answer, as they could not when writing held main up), answered once it is on disk.
      const answer = toPanel(find(current, id), current);
      await saving;
      return answer;
    } catch (error) {
      // A log in that fails must not leave the panel signed in behind the operator's back. The
      // token is gone from memory at once; a deletion that could not be written stays due.
      await attemptWrite(() => vault.forget(id));
      endDropped();
      throw error;
    }
  }

  return {
    async logIn(id, credentials) {
      const [panelId, { email, password, code }] = parseArguments('logIn', [id, credentials]);
      const current = await state();
      const { baseUrl, loginPath, tokenField } = find(current, panelId);
      // The generation is taken where the attempt starts: a log out from here on drops it.
      const generation = current.vault.generation(panelId);
      const attempt = [generation, baseUrl, loginPath, tokenField, email, password, code ?? null];
      return logIns.run(panelId, attempt, () => logInOnce(panelId, { email, password, code }, generation, baseUrl));
    },

    async logOut(id) {
      const [panelId] = parseArguments('logOut', [id]);
      const current = await state();
      const record = find(current, panelId);
      const held = heldSignIns(current, [record]);
      const ending = endSignIn(context, current, record, { signedOutReason: null }, `signed out of ${record.name}`);
      // The panel as this log out leaves it (a log in started meanwhile does not change the answer; see logInOnce).
      const answer = toPanel(current.registry.get(panelId) ?? record, current);
      await ending;
      const note = (await endAtPanels(current, held)).get(panelId);
      return note ? { ...answer, signedOutReason: note } : answer;
    },

    async logOutPanels(ids) {
      const [requested] = parseArguments('logOutPanels', [ids]);
      const current = await state();
      const records = [...new Set(requested)].flatMap((id) => current.registry.get(id) ?? []);
      const held = heldSignIns(current, records);
      const ending = endSignIns(context, current, records, { signedOutReason: null }, `signed out of ${plural(records.length, 'panel')}`);
      const answer = records.map((record) => toPanel(current.registry.get(record.id) ?? record, current));
      await ending;
      const notes = await endAtPanels(current, held);
      return answer.map((panel) => {
        const note = notes.get(panel.id);
        return note ? { ...panel, signedOutReason: note } : panel;
      });
    },
  };
}

/** The tokens of these panels' sign-ins, taken before they end, to ask the panels to end their sessions. */
export function heldSignIns(current: ServiceState, records: readonly PanelRecord[]): EndedSignIn[] {
  return records.flatMap((record) => {
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
  context: ServiceContext,
  current: ServiceState,
  record: PanelRecord,
  change: PanelRecordChange,
  what: string,
): Promise<{ record: PanelRecord; listFailure: PanelError | null }> {
  const { listFailure } = await endSignIns(context, current, [record], change, what);
  return { record: current.registry.get(record.id) ?? record, listFailure };
}

/** `endSignIn` for several panels, with one write of each file. */
export async function endSignIns(
  { cache, reader, changes }: ServiceContext,
  current: ServiceState,
  records: readonly PanelRecord[],
  change: PanelRecordChange,
  what: string,
): Promise<{ listFailure: PanelError | null }> {
  const ids = records.map((record) => record.id);
  // Both files' changes are made in memory before either write is waited for: a call made
  // meanwhile sees the sign-in ended and the list changed together.
  const forgetting = attemptWrite(() => current.vault.forget(...ids));
  for (const id of ids) {
    cache.forget(id);
    reader.forget(id);
    current.history.record(id, { sessionExpiresAt: null });
    changes.changed(id);
  }
  const ended = new Map(ids.map((id) => [id, { ...change, tokenStorage: null }]));
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
