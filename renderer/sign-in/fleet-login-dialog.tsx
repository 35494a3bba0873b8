import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { plural } from '../../shared/counts.ts';
import type { FleetLogInResult } from '../../shared/fleet-login.ts';
import type { Panel } from '../../shared/types.ts';
import { useApi, usePanels, useStatus } from '../window/app-context.tsx';
import { useBusyAction } from '../window/busy-action.ts';
import { fleetEmails, fleetTargets, sharedEmail, unencryptedTargets } from './fleet-login.ts';

import { FleetLoginResults } from './fleet-login-results.tsx';
import { ModalDialog } from '../ui/modal-dialog.tsx';
import { TextField } from '../ui/text-field.tsx';

const count = (n: number) => plural(n, 'panel');

interface FleetLoginDialogProps {
  /** The panels selected when the dialog was opened. */
  panelIds: readonly string[];
  onClose(): void;
}

const NAMES_SHOWN = 6;
const names = (panels: readonly Panel[]) => {
  const shown = panels.slice(0, NAMES_SHOWN).map((panel) => panel.name);
  return panels.length > NAMES_SHOWN ? `${shown.join(', ')} and ${panels.length - NAMES_SHOWN} more` : shown.join(', ');
};

/**
 * "Log in to N panels": one email and password for all of them, asked once; then main's progress
 * with Cancel; then what happened at each panel, with those that need more to finish one by one.
 * The password stays in this dialog while it is open (the finishing rows send it again) and goes with it.
 */
export function FleetLoginDialog({ panelIds, onClose }: FleetLoginDialogProps) {
  const api = useApi();
  const { byId, panels: fleet } = usePanels();
  const { status, fleetProgress } = useStatus();
  // The selection as it was opened: panels removed meanwhile drop out.
  const panels = useMemo(() => panelIds.flatMap((id) => byId.get(id) ?? []), [panelIds, byId]);
  const signedIn = panels.filter((panel) => panel.signedIn);
  const [email, setEmail] = useState(() => sharedEmail(panels, status?.settings.defaultEmail ?? null, fleet ?? []));
  const [password, setPassword] = useState('');
  const [rememberMe, setRememberMe] = useState(true);
  const [alsoSignedIn, setAlsoSignedIn] = useState(false);
  const [sendUnencrypted, setSendUnencrypted] = useState(false);
  const [results, setResults] = useState<FleetLogInResult[] | null>(null);
  const [cancelling, setCancelling] = useState(false);
  // How many the run was sent to: the title keeps it while panels sign in (and so drop out of `targets`).
  const [sentTo, setSentTo] = useState(0);
  const { busy, error, run } = useBusyAction();
  const passwordInput = useRef<HTMLInputElement>(null);
  const emailInput = useRef<HTMLInputElement>(null);
  // The field Enter found empty: said at the field, in the form's words (Enter always reaches submit).
  const [missing, setMissing] = useState<'email' | 'password' | null>(null);
  const usedEmails = useMemo(() => fleetEmails(fleet ?? []), [fleet]);
  // After the dialog opened (its effect runs before this one) and focused its first field: with
  // the email known, the password is the one thing to type.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, as the dialog opens
  useEffect(() => {
    if (email !== '') passwordInput.current?.focus();
  }, []);
  const targets = fleetTargets(panels, alsoSignedIn);
  const unencrypted = unencryptedTargets(targets);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (targets.length === 0) return;
    const empty = email.trim() === '' ? 'email' : password === '' ? 'password' : null;
    setMissing(empty);
    if (empty) {
      (empty === 'email' ? emailInput : passwordInput).current?.focus();
      return;
    }
    setSentTo(targets.length);
    void run(async () => {
      const sendOverPlainHttp = sendUnencrypted ? unencrypted.map((panel) => panel.id) : [];
      const ids = targets.map((panel) => panel.id);
      setResults(await api.logInPanels(ids, { email, password, rememberMe, sendOverPlainHttp }));
    });
  };
  const cancel = () => {
    setCancelling(true);
    void api.cancelLogIns().catch(() => undefined);
  };

  const form = (
    <form onSubmit={submit} className="fleet-login-form" noValidate>
      <p className="muted">
        One email and password for {targets.length === 1 ? 'this panel' : `these ${count(targets.length)}`}: {names(targets) || 'none'}.
        Each panel gets them at its own log in; Paneldeck keeps the password only until they are done.
      </p>
      <TextField
        label="Email"
        name="email"
        type="email"
        autoComplete="username"
        value={email}
        required
        ref={emailInput}
        suggestions={usedEmails}
        error={missing === 'email' ? 'Type the email to log in with: the same for every panel here.' : null}
        onChange={(event) => setEmail(event.target.value)}
      />
      <TextField
        label="Password"
        name="password"
        type="password"
        autoComplete="current-password"
        value={password}
        required
        ref={passwordInput}
        error={missing === 'password' ? 'Type the password, then press Enter.' : null}
        onChange={(event) => setPassword(event.target.value)}
      />
      <label className="checkbox">
        <input type="checkbox" checked={rememberMe} onChange={(event) => setRememberMe(event.target.checked)} />
        Keep me signed in
      </label>
      {signedIn.length > 0 && (
        <label className="checkbox">
          <input type="checkbox" checked={alsoSignedIn} onChange={(event) => setAlsoSignedIn(event.target.checked)} />
          Also log in again to {plural(signedIn.length, 'signed-in panel')}
        </label>
      )}
      {unencrypted.length > 0 && (
        <div className="notice notice-warning" role="alert">
          <p className="notice-title">
            {count(unencrypted.length)} on plain http: {names(unencrypted)}
          </p>
          <p>The password would cross the network readable by anyone on the path.</p>
          <label className="checkbox">
            <input type="checkbox" checked={sendUnencrypted} onChange={(event) => setSendUnencrypted(event.target.checked)} />
            Send it to {unencrypted.length === 1 ? 'this panel' : `these ${unencrypted.length}`} unencrypted too
          </label>
        </div>
      )}
      {error && (
        <p className="field-error" role="alert">
          {error.message}
        </p>
      )}
      <div className="form-actions">
        <button type="button" onClick={onClose}>
          Close
        </button>
        <button type="submit" className="button-primary" disabled={targets.length === 0}>
          Log in to {count(targets.length)}
        </button>
      </div>
    </form>
  );

  // One dialog through the three steps, so focus goes back to the list when it closes.
  const running = busy && !results;
  const title = results ? 'Log in: done' : running ? `Logging in to ${count(sentTo)}` : `Log in to ${count(targets.length)}`;
  // While running, Esc does nothing: closing would not stop what was sent; only Cancel stops.
  const close = running ? () => undefined : onClose;
  return (
    <ModalDialog title={title} className="modal-wide fleet-login" onClose={close}>
      {results ? (
        <FleetLoginResults results={results} onChange={setResults} credentials={{ email, password, rememberMe }} onClose={onClose} />
      ) : running ? (
        <FleetProgress progress={fleetProgress} total={targets.length} cancelling={cancelling} onCancel={cancel} />
      ) : (
        form
      )}
    </ModalDialog>
  );
}

function FleetProgress({
  progress,
  total: asked,
  cancelling,
  onCancel,
}: {
  progress: { done: number; total: number } | null;
  total: number;
  cancelling: boolean;
  onCancel(): void;
}) {
  const done = progress?.done ?? 0;
  const total = progress?.total ?? asked;
  return (
    <>
      <div className="fleet-login-progress" role="status">
        <progress value={done} max={total} aria-label="Panels done" />
        <p>
          {done.toLocaleString('en')} of {total.toLocaleString('en')} done
          {cancelling && '. Cancelled: waiting for the log ins already sent to answer…'}
        </p>
      </div>
      <div className="form-actions">
        <button type="button" onClick={onCancel} disabled={cancelling}>
          {cancelling ? 'Cancelling…' : 'Cancel'}
        </button>
      </div>
    </>
  );
}
