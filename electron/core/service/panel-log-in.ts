import { PanelError } from '../../../shared/errors.ts';
import type { Panel } from '../../../shared/types.ts';
import { logInFindingStyle, type LogInCredentials } from '../http/panel-endpoints.ts';
import { LogInQueue } from './login-queue.ts';
import type { ServiceContext } from './service-context.ts';
import { toPanel } from './service-state.ts';
import { attemptWrite, find } from './session-reader.ts';

/** Logs in to one panel with credentials already checked against the contract; never returns the token. */
export type PanelLogIn = (panelId: string, credentials: LogInCredentials) => Promise<Panel>;

/**
 * The one way Paneldeck logs in to a panel, for the log in of one panel and of several alike: one
 * request at a time per panel (`login-queue.ts`), the API style found and remembered, the token
 * kept only while the panel's address and sign-in are the ones the attempt started with.
 */
export function createPanelLogIn(context: ServiceContext): PanelLogIn {
  const { state, request, now, cache, reader, changes, presented } = context;
  const logIns = new LogInQueue();

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
      if (error instanceof PanelError && error.certificate) presented.set(id, error.certificate);
      throw error;
    }
    const storage = await vault.save(id, token, now(), { generation, baseUrl: panel.baseUrl });
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
      throw error;
    }
  }

  return async (panelId, credentials) => {
    const { email, password, code, rememberMe } = credentials;
    const current = await state();
    const { baseUrl, loginPath, tokenField } = find(current, panelId);
    // The generation is taken where the attempt starts: a log out from here on drops it.
    const generation = current.vault.generation(panelId);
    const attempt = [generation, baseUrl, loginPath, tokenField, email, password, code ?? null, rememberMe === true ? 1 : 0];
    return logIns.run(panelId, attempt, () => logInOnce(panelId, { email, password, code, rememberMe }, generation, baseUrl));
  };
}
