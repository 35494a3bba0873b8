import { randomUUID } from 'node:crypto';
import { PanelError } from '../../../shared/contract/errors.ts';
import type { AccountInput } from '../../../shared/schemas/schemas.ts';
import type { PanelAccount, Panel } from '../../../shared/types.ts';
import { writeRecorder } from '../activity/activity-methods.ts';
import type { CoreMethods } from '../context/core-context.ts';
import { checkApiToken } from '../easypanel/api-token-check.ts';
import { logInFindingStyle } from '../easypanel/panel-endpoints.ts';
import { toPanel, type DataFolder } from '../storage/data-folder.ts';
import { accountLabel } from '../../../shared/accounts.ts';
import { ACCOUNTS_AT_MOST, accountKey } from '../storage/panel-record.ts';
import type { PanelRecord } from '../storage/panel-registry.ts';
import type { SignInParts } from './keep-sign-in.ts';
import { LogInQueue } from './login-queue.ts';
import { endSessionsAtPanels, type EndedSignIn } from './panel-logout.ts';
import { attemptWrite, find } from './session-reader.ts';

/**
 * A panel's other accounts (a project-limited user beside the admin): each signed in on its own,
 * its token in the vault under `accountKey`, never in the panel list, a fleet file or the window.
 * Reads go as the panel's own sign-in; writes go as the account `writeAccount` names.
 */
export function panelAccountMethods(parts: SignInParts): CoreMethods<'addPanelAccount' | 'removePanelAccount' | 'chooseWriteAccount'> {
  const { state, request, changes, now } = parts;
  // One sign-in at a time per panel's account, as the panel's own log ins go.
  const signIns = new LogInQueue();

  /** The token the panel gives for `input`, sent to the panel's address as it is now; recorded as a log in. */
  async function tokenFor(current: DataFolder, record: PanelRecord, input: AccountInput, label: string | null): Promise<string> {
    const recorded = writeRecorder(parts, current.activity);
    if (input.kind === 'apiToken') {
      const token = input.token.trim();
      await recorded(record, { action: 'logInWithApiToken' }, () => checkApiToken(request, record, token), {
        secrets: [token],
        unrecorded: 'send',
        account: label,
      });
      return token;
    }
    const { email, password, code } = input;
    return recorded(
      record,
      { action: 'logIn' },
      // The panel's generation is known from its own sign-in: an answer at other paths changes nothing of it.
      () => logInFindingStyle(request, record, { email: email.trim(), password, code }, [], async () => undefined),
      { secrets: [password, code ?? ''].filter(Boolean), unrecorded: 'send', account: label },
    );
  }

  async function addAccount(panelId: string, input: AccountInput): Promise<Panel> {
    const current = await state();
    const record = find(current, panelId);
    const email = input.kind === 'password' ? input.email.trim() : null;
    const kind = input.kind === 'password' ? 'session' : 'api-token';
    if (kind === 'session' && email !== null && record.tokenKind === 'session' && record.lastEmail === email) {
      throw new PanelError('INVALID_INPUT', `${record.name} is already signed in as ${email}: that is its own sign-in.`);
    }
    // The same email again signs that account in again (an expired sign-in), under its id.
    const again = email === null ? undefined : record.accounts.find((one) => one.kind === kind && one.email === email);
    if (!again && record.accounts.length >= ACCOUNTS_AT_MOST) {
      throw new PanelError('INVALID_INPUT', `${record.name} keeps ${ACCOUNTS_AT_MOST} other accounts at most: remove one first.`);
    }
    const id = again?.id ?? randomUUID();
    const key = accountKey(panelId, id);
    const signInFor = { epoch: current.vault.epoch(key), baseUrl: record.baseUrl };
    const label = accountLabel(kind, email);
    const token = await tokenFor(current, record, input, label);
    const endAtPanel = () => {
      // The panel opened a session this add does not keep: asked to end it, nobody waits.
      if (kind === 'session')
        void endSessionsAtPanels(request, [{ record, token, endsAt: null, account: label }], writeRecorder(parts, current.activity));
    };
    const storage = await current.vault.save(key, token, now(), signInFor);
    const latest = current.registry.get(panelId);
    if (storage === null || !latest || latest.baseUrl !== record.baseUrl) {
      await attemptWrite(() => current.vault.forget(key));
      endAtPanel();
      throw new PanelError(
        'NOT_SIGNED_IN',
        `${record.name} was removed or moved while the account was signed in, so it was not kept. Add it again.`,
      );
    }
    const account: PanelAccount = { id, email, kind, tokenStorage: storage, addedAt: again?.addedAt ?? now().toISOString() };
    // Read and written with no wait between: an account added or removed meanwhile is kept as it is.
    const accounts = [...latest.accounts.filter((one) => one.id !== id), account];
    try {
      await current.registry.update(panelId, { accounts });
    } catch (error) {
      await attemptWrite(() => current.vault.forget(key));
      endAtPanel();
      throw error;
    }
    changes.changed(panelId);
    return toPanel(find(current, panelId), current);
  }

  return {
    addPanelAccount(panelId, input) {
      const attempt =
        input.kind === 'password' ? [input.kind, input.email.trim(), input.password, input.code ?? null] : [input.kind, input.token];
      return signIns.run(panelId, attempt, () => addAccount(panelId, input));
    },

    async removePanelAccount(panelId, accountId) {
      const current = await state();
      const record = find(current, panelId);
      const account = accountOf(record, accountId);
      const key = accountKey(panelId, accountId);
      const token = account.kind === 'session' ? current.vault.token(key, record.baseUrl) : undefined;
      const ended = token ? [{ record, token, endsAt: null, account: accountLabel(account.kind, account.email) }] : [];
      // Forgotten here first, at once; the list and the vault are written together.
      const forgetting = attemptWrite(() => current.vault.forget(key));
      const accounts = record.accounts.filter(({ id }) => id !== accountId);
      const writeAccount = record.writeAccount === accountId ? null : record.writeAccount;
      const listing = attemptWrite(() => current.registry.update(panelId, { accounts, writeAccount }));
      changes.changed(panelId);
      const [vaultFailure, listFailure] = await Promise.all([forgetting, listing]);
      if (vaultFailure && listFailure) throw listFailure;
      // Its session is ended at the panel too; nobody waits: it is gone here already.
      void endSessionsAtPanels(request, ended, writeRecorder(parts, current.activity));
      return toPanel(find(current, panelId), current);
    },

    async chooseWriteAccount(panelId, accountId) {
      const current = await state();
      const record = find(current, panelId);
      if (accountId !== null) {
        const account = accountOf(record, accountId);
        if (current.vault.token(accountKey(panelId, accountId), record.baseUrl) === undefined) {
          throw new PanelError(
            'NOT_SIGNED_IN',
            `${accountLabel(account.kind, account.email) ?? 'This account'} is signed out of ${record.name}: add it again to sign it in, then choose it.`,
          );
        }
      }
      await current.registry.update(panelId, { writeAccount: accountId });
      changes.changed(panelId);
      return toPanel(find(current, panelId), current);
    },
  };
}

/** One of the panel's other accounts, or NOT_FOUND (removed meanwhile, from another window or a restart). */
function accountOf(record: PanelRecord, accountId: string): PanelAccount {
  const account = record.accounts.find(({ id }) => id === accountId);
  if (!account) throw new PanelError('NOT_FOUND', `${record.name} has no such account any more: it may have been removed.`);
  return account;
}

/** The vault keys of the panels' other accounts: forgotten with the panels. */
export function accountKeysOf(records: readonly PanelRecord[]): string[] {
  return records.flatMap((record) => record.accounts.map(({ id }) => accountKey(record.id, id)));
}

/** The sessions of the panels' other accounts held now: each ended at its panel when the account or the panel goes (never an API token's). */
export function accountSignIns(current: Pick<DataFolder, 'vault'>, records: readonly PanelRecord[]): EndedSignIn[] {
  return records.flatMap((record) =>
    record.accounts.flatMap((account) => {
      if (account.kind === 'api-token') return [];
      const token = current.vault.token(accountKey(record.id, account.id), record.baseUrl);
      return token ? [{ record, token, endsAt: null, account: accountLabel(account.kind, account.email) }] : [];
    }),
  );
}
