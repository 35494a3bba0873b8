import { PanelError } from '../../../shared/contract/errors.ts';
import type { Panel } from '../../../shared/types.ts';
import { logInFindingStyle, type LogInCredentials } from '../easypanel/panel-endpoints.ts';
import type { DataFolder } from '../storage/data-folder.ts';
import type { PanelRecord, PanelRecordChange } from '../storage/panel-registry.ts';
import { signInWithApiToken } from './api-token-sign-in.ts';
import { keepSignIn, type SignInFor, type SignInParts } from './keep-sign-in.ts';
import { LogInQueue } from './login-queue.ts';
import { writeRecorder } from '../activity/activity-methods.ts';
import { endSessionsAtPanels } from './panel-logout.ts';
import { attemptWrite, find } from './session-reader.ts';

/** Logs in to one panel with credentials already validated against the contract; never returns the token. */
/** `asked`: the address the log in was asked for; one changed since is sent nothing (CHANGED_BEFORE_SENDING). */
export type PanelLogIn = (panelId: string, credentials: LogInCredentials, asked?: { baseUrl: string }) => Promise<Panel>;

/** The two ways a panel is signed in, sharing one queue: one sign-in at a time per panel, whichever kind. */
export interface PanelSignIns {
  /** `credentials.rememberMe` undefined: the panel's remembered "Keep me signed in"; given: sent and remembered. */
  withPassword: PanelLogIn;
  /** A pasted API token, checked at the panel before it is kept. */
  withApiToken(panelId: string, token: string): Promise<Panel>;
}

/**
 * The one way Paneldeck logs in to a panel, for the log in of one panel and of several alike: one
 * request at a time per panel (`login-queue.ts`), the generation found and remembered, the token
 * kept only while the panel's address and sign-in are the ones the attempt started with.
 */
export function createPanelSignIns(parts: SignInParts): PanelSignIns {
  const { state, request, changes, presented } = parts;
  const logIns = new LogInQueue();

  /**
   * `generation` and `baseUrl` are the panel's as the operator asked to log in: a new address
   * since then drops this log in before the password is sent, a log out drops its token.
   * `chosen`: "Keep me signed in" as the form sent it, to remember (undefined: the panel's, unchanged).
   */
  async function logInOnce(id: string, credentials: LogInCredentials, signInFor: SignInFor, chosen: boolean | undefined) {
    const current = await state();
    const panel = find(current, id);
    // The address decides where the password goes: one typed for the old address is not sent to
    // the new one. (A log out meanwhile is handled after the answer: that token is not kept.)
    if (panel.baseUrl !== signInFor.baseUrl) {
      throw new PanelError(
        'NOT_SIGNED_IN',
        "The panel's address changed before this log in was sent, so the password was not sent. Log in again.",
      );
    }
    // In the activity log like every request that changes something at a panel: the log in
    // opens a session there. Never the password or the code; sent even when the log cannot be written.
    return writeRecorder(parts, current.activity)(
      panel,
      { action: 'logIn' },
      () => sendLogIn(current, panel, credentials, signInFor, chosen),
      {
        secrets: [credentials.password, credentials.code ?? ''].filter(Boolean),
        unrecorded: 'send',
      },
    );
  }

  async function sendLogIn(
    current: DataFolder,
    panel: PanelRecord,
    credentials: LogInCredentials,
    signInFor: SignInFor,
    chosen: boolean | undefined,
  ) {
    const { registry, vault } = current;
    const { id } = panel;
    const held = vault.token(id, panel.baseUrl);
    let token: string;
    try {
      token = await logInFindingStyle(request, panel, credentials, held ? [held] : [], async (endpoint) => {
        // Remembered whatever the log in's outcome (a code asked for, a wrong password): the panel
        // speaks this generation, and the next attempt goes straight to it.
        if (registry.get(id)?.baseUrl !== signInFor.baseUrl) return;
        await attemptWrite(() =>
          registry.update(id, { generation: endpoint.generation, loginPath: endpoint.loginPath, sessionPath: endpoint.sessionPath }),
        );
        changes.changed(id);
      });
    } catch (error) {
      // Only while the panel is still at the address that presented it: a move meanwhile made it another server's.
      if (error instanceof PanelError && error.certificate && registry.get(id)?.baseUrl === signInFor.baseUrl) {
        presented.set(id, error.certificate);
      }
      throw error;
    }
    const change: PanelRecordChange = { lastEmail: credentials.email, tokenKind: 'session' };
    // The operator's choice in the form is remembered for the panel's next log in.
    if (chosen !== undefined) change.keepSignedIn = chosen;
    try {
      return await keepSignIn(parts, current, id, token, signInFor, change);
    } catch (error) {
      // The panel opened a session for a token this log in does not keep (the panel was signed
      // out, moved or removed meanwhile, or the sign-in could not be recorded): it is asked to end
      // it, at the address the token came from, as a removal asks (nobody waits).
      const latest = registry.get(id);
      void endSessionsAtPanels(
        request,
        [{ record: latest?.baseUrl === panel.baseUrl ? latest : panel, token, endsAt: null }],
        writeRecorder(parts, current.activity),
      );
      throw error;
    }
  }

  return {
    async withPassword(panelId, credentials, asked) {
      const { email, password, code, rememberMe } = credentials;
      const current = await state();
      const { baseUrl, loginPath, tokenField, keepSignedIn, name } = find(current, panelId);
      // The password goes only to the address the operator asked to log in to.
      if (asked && asked.baseUrl !== baseUrl)
        throw new PanelError('CHANGED_BEFORE_SENDING', `Not sent: ${name}'s address changed after the log in was asked.`);
      // The generation is taken where the attempt starts: a log out from here on drops it.
      const epoch = current.vault.epoch(panelId);
      const keep = rememberMe ?? keepSignedIn;
      const attempt = [epoch, baseUrl, loginPath, tokenField, email, password, code ?? null, String(keep)];
      return logIns.run(panelId, attempt, () =>
        logInOnce(panelId, { email, password, code, rememberMe: keep }, { epoch, baseUrl }, rememberMe),
      );
    },

    async withApiToken(panelId, token) {
      const current = await state();
      const { baseUrl } = find(current, panelId);
      const epoch = current.vault.epoch(panelId);
      const record = find(current, panelId);
      return logIns.run(panelId, [epoch, baseUrl, 'api-token', token], () =>
        writeRecorder(parts, current.activity)(
          record,
          { action: 'logInWithApiToken' },
          () => signInWithApiToken(parts, panelId, token, { epoch, baseUrl }),
          { secrets: [token], unrecorded: 'send' },
        ),
      );
    },
  };
}
