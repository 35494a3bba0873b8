import { useId, useRef, useState, type FormEvent } from 'react';
import type { Panel } from '../../shared/types.ts';
import { useApi } from '../window/app-context.tsx';
import { useBusyAction } from '../window/busy-action.ts';
import { LogInActions } from './log-in-actions.tsx';
import { CertificateNotice, isCertificateProblem } from './certificate-notice.tsx';
import { UnencryptedLogInWarning } from '../ui/plain-http.tsx';

interface ApiTokenFormProps {
  panel: Panel;
  title: string;
  onSignedIn(panel: Panel): void;
  onTrusted(panel: Panel): void;
  /** Back to the email and password form. */
  onUsePassword(): void;
  /** Shown as Cancel when the panel is signed in already (a log in again). */
  onCancel?: (() => void) | undefined;
}

/**
 * "Use an API token instead": the operator pastes a long-lived token made in Easypanel. Main checks
 * it with the panel and keeps it; it never comes back here. The field is cleared after each attempt
 * (kept only when the connection was refused before it was sent: a certificate to trust).
 */
export function ApiTokenForm({ panel, title, onSignedIn, onTrusted, onUsePassword, onCancel }: ApiTokenFormProps) {
  const api = useApi();
  const [token, setToken] = useState('');
  const { busy, error, run } = useBusyAction();
  const tokenInput = useRef<HTMLInputElement>(null);
  const ids = useId();

  const attempt = () =>
    run(
      async () => {
        onSignedIn(await api.logInWithApiToken(panel.id, { token }));
        setToken('');
      },
      (failure) => {
        if (!isCertificateProblem(failure)) setToken('');
        requestAnimationFrame(() => tokenInput.current?.focus());
        return failure;
      },
    );
  // The token was not sent over the refused connection: it goes now, to the trusted one.
  const trustAndRetry = (trusted: Panel) => {
    onTrusted(trusted);
    void attempt();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void attempt();
  };

  return (
    <form className="card login-form api-token-form" onSubmit={submit} noValidate aria-labelledby={`${ids}-title`} aria-busy={busy}>
      <h2 id={`${ids}-title`}>{title}</h2>
      <p className="muted">
        Paste an API token made in Easypanel (Settings, Users, API token). Paneldeck checks it with this panel, then keeps it encrypted like
        a session; it is never shown again.
      </p>
      <UnencryptedLogInWarning panel={panel} secrets="the API token crosses" />
      <label className="field">
        <span className="field-label">API token</span>
        <input
          ref={tokenInput}
          type="password"
          name="apiToken"
          autoComplete="off"
          spellCheck={false}
          required
          // biome-ignore lint/a11y/noAutofocus: the operator asked for this form: the cursor goes where the token is pasted
          autoFocus
          value={token}
          onChange={(event) => setToken(event.target.value)}
          disabled={busy}
          aria-invalid={error?.code === 'UNAUTHORIZED' || error?.code === 'INVALID_INPUT' ? true : undefined}
          aria-describedby={error && !isCertificateProblem(error) ? `${ids}-error` : `${ids}-hint`}
        />
        <span className="field-hint" id={`${ids}-hint`}>
          An API token does not expire: it stays valid until it is revoked in Easypanel, also after you log out here.
        </span>
      </label>
      {isCertificateProblem(error) && <CertificateNotice panel={panel} error={error} onTrusted={trustAndRetry} />}
      {error && !isCertificateProblem(error) && (
        <div id={`${ids}-error`} className="notice notice-error" role="alert">
          <p className="notice-title">Could not sign in with this API token</p>
          <p>{error.message}</p>
        </div>
      )}
      <LogInActions
        busy={busy}
        submitLabel="Sign in with this token"
        busyLabel="Checking the token…"
        switchLabel="Use email and password instead"
        onSwitch={onUsePassword}
        onCancel={onCancel}
      />
    </form>
  );
}
