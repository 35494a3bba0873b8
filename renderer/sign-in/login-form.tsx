import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { CODE_REFUSED_MESSAGE, type ErrorInfo } from '../../shared/contract/errors.ts';
import type { Panel } from '../../shared/types.ts';
import { useApi } from '../window/app-context.tsx';
import { useBusyAction } from '../window/busy-action.ts';
import { LogInActions } from './log-in-actions.tsx';
import { CertificateNotice, isCertificateProblem } from './certificate-notice.tsx';
import { CodeField } from './code-field.tsx';
import { ApiTokenForm } from './api-token-form.tsx';
import { UnencryptedLogInWarning } from '../ui/plain-http.tsx';

interface LoginFormProps {
  panel: Panel;
  /** From Preferences, for a panel never logged in to. */
  defaultEmail: string | null;
  onLoggedIn(panel: Panel): void;
  /** The panel as it is after its certificate was trusted (still signed out). */
  onTrusted(panel: Panel): void;
  onOpenSettings(): void;
  /**
   * Given when the panel is signed in already: a log in again, whose new token replaces the old
   * one only once it succeeded. Shown as Cancel.
   */
  onCancel?: (() => void) | undefined;
}

/** Failures after which the password is kept: it was not sent, or the next step needs it again. */
function keepsPassword(error: ErrorInfo): boolean {
  return isAboutCode(error) || isCertificateProblem(error);
}

/** Failures the panel's settings fix: the login path or the token field is not what this panel uses. */
const settingsCodes = new Set(['LOGIN_ENDPOINT_NOT_FOUND', 'NO_TOKEN_IN_RESPONSE']);
/** Failures that are about what was typed. */
const credentialCodes = new Set(['INVALID_CREDENTIALS', 'INVALID_INPUT']);

/** Failures about the second factor: shown at the code field, the email and password kept. */
function isAboutCode(error: ErrorInfo): boolean {
  return (
    error.code === 'TWO_FACTOR_REQUIRED' ||
    (error.code === 'INVALID_CREDENTIALS' && error.message === CODE_REFUSED_MESSAGE) ||
    (error.code === 'INVALID_INPUT' && error.message.startsWith('Authentication code'))
  );
}

/** The log in form, by email and password or (the operator's choice) with an API token made in Easypanel. */
export function LoginForm(props: LoginFormProps) {
  const [withApiToken, setWithApiToken] = useState(false);
  const title = `${props.onCancel ? 'Log in again to' : 'Log in to'} ${props.panel.name}`;
  if (withApiToken) {
    return (
      <ApiTokenForm
        panel={props.panel}
        title={title}
        onSignedIn={props.onLoggedIn}
        onTrusted={props.onTrusted}
        onUsePassword={() => setWithApiToken(false)}
        onCancel={props.onCancel}
      />
    );
  }
  return <PasswordForm {...props} title={title} onUseApiToken={() => setWithApiToken(true)} />;
}

function PasswordForm({
  panel,
  defaultEmail,
  onLoggedIn,
  onTrusted,
  onOpenSettings,
  onCancel,
  title,
  onUseApiToken,
}: LoginFormProps & { title: string; onUseApiToken(): void }) {
  const api = useApi();
  const [email, setEmail] = useState(panel.lastEmail ?? defaultEmail ?? '');
  // Preferences may arrive after the form: their email fills a field nobody has typed in yet.
  const emailTouched = useRef(false);
  useEffect(() => {
    if (defaultEmail && !emailTouched.current && !panel.lastEmail) setEmail((current) => current || defaultEmail);
  }, [defaultEmail, panel.lastEmail]);
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  /** "Keep me signed in": the panel's remembered choice (on unless turned off), sent with every attempt. */
  const [keepSignedIn, setKeepSignedIn] = useState(panel.keepSignedIn);
  /** Set once the panel asked for a second factor: from then on every attempt sends a code. */
  const [needsCode, setNeedsCode] = useState(false);
  // One log in at a time: a second Enter before React re-renders must not send a second one.
  const { busy, error, run } = useBusyAction();
  const passwordInput = useRef<HTMLInputElement>(null);
  const codeInput = useRef<HTMLInputElement>(null);
  const errorId = useId();
  /** Shown while the operator walks the panel list or table with the keyboard: it keeps the focus (Ctrl+A there selects panels). */
  const [takesFocus] = useState(
    () => !(document.activeElement instanceof HTMLElement && document.activeElement.closest('[role="tree"], [role="grid"]')),
  );
  /** The field to put the cursor in once the failed attempt has re-rendered (and enabled) the form. */
  const [focusAfter, setFocusAfter] = useState<{ field: 'password' | 'code' } | null>(null);

  useEffect(() => {
    if (busy || !focusAfter) return;
    (focusAfter.field === 'code' ? codeInput : passwordInput).current?.focus();
  }, [busy, focusAfter]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void attempt();
  };

  const attempt = () =>
    run(
      async () => {
        const rememberMe = keepSignedIn;
        onLoggedIn(await api.logIn(panel.id, needsCode ? { email, password, code, rememberMe } : { email, password, rememberMe }));
        // The password lives only as long as one attempt; a code is good for one attempt at most.
        setPassword('');
        setCode('');
      },
      (failure) => {
        // A panel removed meanwhile leaves by main's event; nothing to re-read here.
        // The password stays only when it was not sent, or the two-factor step needs it again.
        if (!keepsPassword(failure)) setPassword('');
        setCode('');
        if (failure.code === 'TWO_FACTOR_REQUIRED') setNeedsCode(true);
        // A new object each time, so a second refusal moves the cursor back too.
        setFocusAfter({ field: isAboutCode(failure) ? 'code' : 'password' });
        // The first request for a code is a prompt, not an error: the field's hint says what to do.
        return failure.code === 'TWO_FACTOR_REQUIRED' && !needsCode ? null : failure;
      },
    );

  return (
    <form className="card login-form" onSubmit={submit} noValidate aria-labelledby={`${errorId}-title`} aria-busy={busy}>
      <h2 id={`${errorId}-title`}>{title}</h2>
      <p className="muted">
        Your password is sent to this panel only and is never saved.
        {onCancel && ' You stay signed in until the new log in has worked.'}
      </p>
      <UnencryptedLogInWarning panel={panel} secrets="your password and the token cross" />
      <label className="field">
        <span className="field-label">Email</span>
        <input
          type="email"
          name="email"
          autoComplete="username"
          required
          // biome-ignore lint/a11y/noAutofocus: the form of the panel just chosen takes the keyboard, at the field to fill
          autoFocus={takesFocus && email === ''}
          value={email}
          onChange={(event) => {
            emailTouched.current = true;
            setEmail(event.target.value);
          }}
          disabled={busy}
        />
      </label>
      <label className="field">
        <span className="field-label">Password</span>
        <input
          ref={passwordInput}
          type="password"
          name="password"
          autoComplete="current-password"
          required
          // biome-ignore lint/a11y/noAutofocus: the form of the panel just chosen takes the keyboard, at the field to fill
          autoFocus={takesFocus && email !== ''}
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          disabled={busy}
          // Red only when the email and password are what was wrong, not when the panel failed.
          aria-invalid={error && credentialCodes.has(error.code) && !isAboutCode(error) ? true : undefined}
          aria-describedby={error && !isAboutCode(error) ? errorId : undefined}
        />
      </label>
      {needsCode && (
        <CodeField
          ref={codeInput}
          value={code}
          onChange={setCode}
          disabled={busy}
          error={error && isAboutCode(error) ? error.message : null}
        />
      )}
      <label className="checkbox keep-signed-in">
        <input
          type="checkbox"
          name="keepSignedIn"
          checked={keepSignedIn}
          onChange={(event) => setKeepSignedIn(event.target.checked)}
          disabled={busy}
        />
        <span>
          Keep me signed in
          <span className="field-hint">
            Asks the panel for its longer session. When it ends is shown as the panel says, once its session has been read.
          </span>
        </span>
      </label>
      {isCertificateProblem(error) && (
        <CertificateNotice
          panel={panel}
          error={error}
          onTrusted={(trusted) => {
            onTrusted(trusted);
            // The password was not sent over the refused connection: it goes now, to the trusted one.
            void attempt();
          }}
        />
      )}
      {error && !isAboutCode(error) && !isCertificateProblem(error) && (
        <div id={errorId} className="notice notice-error" role="alert">
          <p className="notice-title">Could not log in</p>
          <p>{error.message}</p>
          {settingsCodes.has(error.code) && (
            <button type="button" className="button-link" onClick={onOpenSettings}>
              Open this panel’s settings (Advanced: login path and token field)
            </button>
          )}
        </div>
      )}
      <LogInActions
        busy={busy}
        submitLabel="Log in"
        busyLabel="Logging in…"
        switchLabel="Use an API token instead"
        onSwitch={onUseApiToken}
        onCancel={onCancel}
      />
    </form>
  );
}
