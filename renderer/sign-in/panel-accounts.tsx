import { useId, useRef, useState, type FormEvent } from 'react';
import { accountLabel } from '../../shared/accounts.ts';
import type { AccountInput } from '../../shared/schemas/schemas.ts';
import type { Panel, PanelAccount } from '../../shared/types.ts';
import { useApi, usePanelChanges } from '../window/app-context.tsx';
import { useBusyAction } from '../window/busy-action.ts';
import { CodeField } from './code-field.tsx';
import { UnencryptedLogInWarning } from '../ui/plain-http.tsx';

/**
 * A panel's accounts: its own sign-in, which every read goes as, and the other accounts kept beside
 * it (a project-limited user beside the admin), one of which the operator may choose for writes.
 * Main keeps their tokens; this shows who they are and whether they are signed in, never a token.
 */
export function PanelAccounts({ panel }: { panel: Panel }) {
  const api = useApi();
  const { changed } = usePanelChanges();
  const { busy, error, run } = useBusyAction();
  const [adding, setAdding] = useState(false);
  const ids = useId();
  const own = accountLabel(panel.tokenKind, panel.lastEmail) ?? 'its sign-in';
  const choose = (accountId: string | null) => void run(async () => changed([await api.chooseWriteAccount(panel.id, accountId)]));
  const remove = (account: PanelAccount) => void run(async () => changed([await api.removePanelAccount(panel.id, account.id)]));

  return (
    <section className="card panel-accounts" aria-labelledby={`${ids}-title`} aria-busy={busy}>
      <div className="section-bar">
        <h3 id={`${ids}-title`}>Accounts</h3>
        {!adding && (
          <button type="button" onClick={() => setAdding(true)} disabled={busy}>
            Add an account…
          </button>
        )}
      </div>
      <p className="muted">
        Reads go as the panel's own sign-in ({own}). Writes go as the account chosen here; each write's confirmation names it.
      </p>
      <fieldset className="accounts-choice" disabled={busy}>
        <legend>Writes go as</legend>
        <label className="account-row">
          <input type="radio" name={`${ids}-write`} checked={panel.writeAccount === null} onChange={() => choose(null)} />
          <span className="account-name">{own}</span>
          <span className="muted">the panel's own sign-in</span>
        </label>
        {panel.accounts.map((account) => {
          const signedIn = account.tokenStorage !== null;
          const name = accountLabel(account.kind, account.email) ?? 'an account';
          return (
            <div key={account.id} className="account-row">
              <label>
                <input
                  type="radio"
                  name={`${ids}-write`}
                  checked={panel.writeAccount === account.id}
                  // A signed-out account may stay chosen (its writes are refused until it is signed in again), never newly chosen.
                  disabled={!signedIn && panel.writeAccount !== account.id}
                  onChange={() => choose(account.id)}
                />
                <span className="account-name">{name}</span>
              </label>
              <span className={signedIn ? 'muted' : 'account-signed-out'}>
                {signedIn ? 'signed in' : 'signed out: add it again to sign it in'}
              </span>
              <button type="button" onClick={() => remove(account)} aria-label={`Remove ${name}`}>
                Remove
              </button>
            </div>
          );
        })}
      </fieldset>
      {error && (
        <div className="notice notice-error" role="alert">
          <p>{error.message}</p>
        </div>
      )}
      {adding && (
        <AddAccountForm
          panel={panel}
          onAdded={(updated) => {
            changed([updated]);
            setAdding(false);
          }}
          onCancel={() => setAdding(false)}
        />
      )}
    </section>
  );
}

/** Signs in another account: an email and password (the code once the panel asks), or a pasted API token. Cleared after each attempt. */
function AddAccountForm({ panel, onAdded, onCancel }: { panel: Panel; onAdded(panel: Panel): void; onCancel(): void }) {
  const api = useApi();
  const { busy, error, run } = useBusyAction();
  const [kind, setKind] = useState<AccountInput['kind']>('password');
  const [email, setEmail] = useState('');
  const [secret, setSecret] = useState('');
  const [code, setCode] = useState('');
  const [needsCode, setNeedsCode] = useState(false);
  const codeInput = useRef<HTMLInputElement>(null);
  const ids = useId();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const input: AccountInput =
      kind === 'apiToken'
        ? { kind, token: secret }
        : { kind, email, password: secret, ...(needsCode && code.trim() !== '' ? { code } : {}) };
    void run(
      async () => onAdded(await api.addPanelAccount(panel.id, input)),
      (failure) => {
        if (failure.code === 'TWO_FACTOR_REQUIRED') {
          // The password stays for the code's attempt; the panel asked for a second factor, which is no failure.
          setNeedsCode(true);
          requestAnimationFrame(() => codeInput.current?.focus());
          return needsCode ? failure : null;
        }
        setSecret('');
        setCode('');
        return failure;
      },
    );
  };

  return (
    <form className="add-account" onSubmit={submit} noValidate aria-labelledby={`${ids}-title`}>
      <h4 id={`${ids}-title`}>Add an account to {panel.name}</h4>
      <UnencryptedLogInWarning panel={panel} secrets={kind === 'password' ? 'its password and token cross' : 'its API token crosses'} />
      <div className="account-kind" role="radiogroup" aria-label="Sign in with">
        {(['password', 'apiToken'] as const).map((one) => (
          <label key={one}>
            <input
              type="radio"
              name={`${ids}-kind`}
              checked={kind === one}
              onChange={() => {
                setKind(one);
                setSecret('');
                setNeedsCode(false);
              }}
            />
            {one === 'password' ? 'Email and password' : 'API token'}
          </label>
        ))}
      </div>
      {kind === 'password' && (
        <label className="field">
          <span className="field-label">Email</span>
          <input
            type="email"
            name="accountEmail"
            autoComplete="off"
            required
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            disabled={busy}
          />
        </label>
      )}
      <label className="field">
        <span className="field-label">{kind === 'password' ? 'Password' : 'API token'}</span>
        <input
          type="password"
          name={kind === 'password' ? 'accountPassword' : 'accountToken'}
          autoComplete="off"
          spellCheck={false}
          required
          value={secret}
          onChange={(event) => setSecret(event.target.value)}
          disabled={busy}
        />
      </label>
      {kind === 'password' && needsCode && (
        <CodeField
          ref={codeInput}
          value={code}
          onChange={setCode}
          disabled={busy}
          error={error?.code === 'INVALID_INPUT' ? error.message : null}
        />
      )}
      {error && (
        <div className="notice notice-error" role="alert">
          <p className="notice-title">The account was not added</p>
          <p>{error.message}</p>
        </div>
      )}
      <div className="form-actions">
        <button type="submit" className="button-primary" disabled={busy}>
          {busy ? 'Signing in…' : 'Add account'}
        </button>
        <button type="button" onClick={onCancel} disabled={busy}>
          Cancel
        </button>
      </div>
    </form>
  );
}
