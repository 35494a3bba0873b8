import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { plural } from '../../shared/counts.ts';
import { LOG_IN_CANCELLED_MESSAGE, type FleetLogInResult } from '../../shared/fleet-login.ts';
import type { Panel } from '../../shared/types.ts';
import { useApi, usePanels, useStatus } from '../window/app-context.tsx';
import { useBusyAction } from '../window/busy-action.ts';
import {
  credentialsKey,
  fleetEmails,
  fleetTargets,
  groupRuns,
  type LogInGroup,
  logInGroups,
  mergedResults,
  notRefusedBefore,
  sharedEmail,
  unencryptedTargets,
} from './fleet-login.ts';

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
  // "Log in again to the refused": the dialog's form again, for those panels only, over the results so far.
  const [again, setAgain] = useState<{ panelIds: readonly string[]; earlier: FleetLogInResult[] } | null>(null);
  const scope = again?.panelIds ?? panelIds;
  // The selection as it was opened: panels removed meanwhile drop out.
  const panels = useMemo(() => scope.flatMap((id) => byId.get(id) ?? []), [scope, byId]);
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
  // A client's panels share their own email and password: one pair per group, when asked.
  const [byGroup, setByGroup] = useState(false);
  const [typedByGroup, setTypedByGroup] = useState<ReadonlyMap<string, { email: string; password: string }>>(new Map());
  // Each panel's credentials as sent, so a row finished later sends its own group's again.
  const sentWith = useRef(new Map<string, { email: string; password: string }>());
  // Each panel's refused email and password pairs in this dialog: never sent to it again.
  const refusedWith = useRef(new Map<string, Set<string>>());
  // Every panel here refused what was typed already: nothing is sent, and the form says so.
  const [allRefusedBefore, setAllRefusedBefore] = useState(false);
  const refusals = useMemo(
    () => ({
      // The same rule as the form's runs (notRefusedBefore), for one panel finished by hand.
      has: (panelId: string, credentials: { email: string; password: string }) =>
        notRefusedBefore([panelId], credentials, refusedWith.current).length === 0,
      add: (panelId: string, credentials: { email: string; password: string }) => {
        const pairs = refusedWith.current.get(panelId) ?? new Set<string>();
        refusedWith.current.set(panelId, pairs.add(credentialsKey(credentials)));
      },
    }),
    [],
  );
  const finish = (ran: readonly FleetLogInResult[]) => {
    for (const result of ran) {
      const sent = sentWith.current.get(result.panelId);
      if (result.outcome === 'wrongPassword' && sent) refusals.add(result.panelId, sent);
    }
    setResults(mergedResults(again?.earlier ?? [], ran));
  };
  const logInAgain = (ids: readonly string[]) => {
    const chosen = ids.flatMap((id) => byId.get(id) ?? []);
    setAgain({ panelIds: ids, earlier: results ?? [] });
    setResults(null);
    setByGroup(logInGroups(chosen).length > 1);
    setTypedByGroup(new Map());
    setPassword('');
    setMissing(null);
    setCancelling(false);
  };
  // A run by group is several runs: Cancel starts no more of them, and the progress counts across them.
  const cancelled = useRef(false);
  const [doneBefore, setDoneBefore] = useState({ done: 0, size: 0 });
  // After the dialog opened (its effect runs before this one) and focused its first field: with
  // the email known, the password is the one thing to type.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, as the dialog opens
  useEffect(() => {
    if (email !== '') passwordInput.current?.focus();
  }, []);
  const targets = fleetTargets(panels, alsoSignedIn);
  const unencrypted = unencryptedTargets(targets);
  const groups = logInGroups(targets);
  const defaultEmail = status?.settings.defaultEmail ?? null;
  const groupTyped = (group: LogInGroup<Panel>) =>
    typedByGroup.get(group.key) ?? { email: sharedEmail(group.panels, defaultEmail, fleet ?? []), password: '' };
  const typeForGroup = (key: string, change: Partial<{ email: string; password: string }>) =>
    setTypedByGroup((current) => {
      const group = groups.find((one) => one.key === key)!;
      return new Map(current).set(key, { ...groupTyped(group), ...change });
    });
  // The runs a log in by group would send as typed now, and how many panels they reach (the button says it).
  const groupRunsTyped = (byGroup ? groupRuns(groups, new Map(groups.map((group) => [group.key, groupTyped(group)]))) : [])
    .map((one) => ({ ...one, panelIds: notRefusedBefore(one.panelIds, one, refusedWith.current) }))
    .filter((one) => one.panelIds.length > 0);
  const groupRunsPanels = groupRunsTyped.reduce((sum, one) => sum + one.panelIds.length, 0);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (targets.length === 0) return;
    if (byGroup) {
      submitByGroup();
      return;
    }
    const empty = email.trim() === '' ? 'email' : password === '' ? 'password' : null;
    setMissing(empty);
    if (empty) {
      (empty === 'email' ? emailInput : passwordInput).current?.focus();
      return;
    }
    // The email as a group run sends it: trimmed, so that " ops@x" and "ops@x" are one pair.
    const sentEmail = email.trim();
    const ids = notRefusedBefore(
      targets.map((panel) => panel.id),
      { email: sentEmail, password },
      refusedWith.current,
    );
    setAllRefusedBefore(ids.length === 0);
    if (ids.length === 0) {
      passwordInput.current?.focus();
      return;
    }
    setSentTo(ids.length);
    void run(async () => {
      const sendOverPlainHttp = sendUnencrypted ? unencrypted.map((panel) => panel.id) : [];
      for (const id of ids) sentWith.current.set(id, { email: sentEmail, password });
      finish(await api.logInPanels(ids, { email: sentEmail, password, rememberMe, sendOverPlainHttp }));
    });
  };
  const submitByGroup = () => {
    const runs = groupRunsTyped;
    setMissing(runs.length === 0 ? 'password' : null);
    if (runs.length === 0) {
      document.querySelector<HTMLInputElement>('.fleet-login-group input[type="password"]')?.focus();
      return;
    }
    setSentTo(groupRunsPanels);
    cancelled.current = false;
    const plainHttp = new Set(sendUnencrypted ? unencrypted.map((panel) => panel.id) : []);
    void run(async () => {
      const all: FleetLogInResult[] = [];
      for (const one of runs) {
        if (cancelled.current) {
          for (const panelId of one.panelIds)
            all.push({ panelId, outcome: 'cancelled', error: { code: 'CANCELLED', message: LOG_IN_CANCELLED_MESSAGE } });
          continue;
        }
        setDoneBefore({ done: all.length, size: one.panelIds.length });
        for (const id of one.panelIds) sentWith.current.set(id, { email: one.email, password: one.password });
        const sendOverPlainHttp = one.panelIds.filter((id) => plainHttp.has(id));
        all.push(...(await api.logInPanels(one.panelIds, { email: one.email, password: one.password, rememberMe, sendOverPlainHttp })));
      }
      finish(all);
    });
  };
  const cancel = () => {
    setCancelling(true);
    cancelled.current = true;
    void api.cancelLogIns().catch(() => undefined);
  };

  const form = (
    <form onSubmit={submit} className="fleet-login-form" noValidate>
      <p className="muted">
        {byGroup ? 'An email and password for each group' : 'One email and password'} for{' '}
        {targets.length === 1 ? 'this panel' : `these ${count(targets.length)}`}: {names(targets) || 'none'}. Each panel gets them at its
        own log in; Paneldeck keeps the password only until they are done.
      </p>
      {groups.length > 1 && (
        <label className="checkbox">
          <input
            type="checkbox"
            checked={byGroup}
            onChange={(event) => {
              setByGroup(event.target.checked);
              setMissing(null);
            }}
          />
          Each group has its own email and password ({plural(groups.length, 'group')})
        </label>
      )}
      {byGroup ? (
        <div className="fleet-login-groups">
          {groups.map((group, index) => {
            const typed = groupTyped(group);
            const name = group.key || 'No group';
            return (
              <fieldset key={group.key} className="fleet-login-group">
                <legend>
                  {name} <span className="muted">· {count(group.panels.length)}</span>
                </legend>
                <TextField
                  label={`Email for ${name}`}
                  type="email"
                  autoComplete="username"
                  value={typed.email}
                  suggestions={usedEmails}
                  onChange={(event) => typeForGroup(group.key, { email: event.target.value })}
                />
                <TextField
                  label={`Password for ${name}`}
                  type="password"
                  autoComplete="current-password"
                  value={typed.password}
                  error={missing === 'password' && index === 0 ? 'Type the password of at least one group, then press Enter.' : null}
                  onChange={(event) => typeForGroup(group.key, { password: event.target.value })}
                />
              </fieldset>
            );
          })}
          <p className="field-hint">A group left without a password is left out of this log in.</p>
        </div>
      ) : (
        <>
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
            error={
              missing === 'password'
                ? 'Type the password, then press Enter.'
                : allRefusedBefore
                  ? 'Each of these panels refused this email and password already: type another.'
                  : null
            }
            onChange={(event) => {
              setPassword(event.target.value);
              setAllRefusedBefore(false);
            }}
          />
        </>
      )}
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
          Log in to {count(byGroup ? groupRunsPanels : targets.length)}
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
        <FleetLoginResults
          results={results}
          onChange={setResults}
          onLogInAgain={logInAgain}
          refusals={refusals}
          credentials={(panelId) => ({ ...(sentWith.current.get(panelId) ?? { email, password }), rememberMe })}
          onClose={onClose}
        />
      ) : running ? (
        <FleetProgress
          progress={byGroup ? acrossGroups(fleetProgress, doneBefore, sentTo) : fleetProgress}
          total={sentTo}
          cancelling={cancelling}
          onCancel={cancel}
        />
      ) : (
        form
      )}
    </ModalDialog>
  );
}

/** A run by group's progress: the groups done before, and the one under way (main's progress is of one run). */
function acrossGroups(
  progress: { done: number; total: number } | null,
  before: { done: number; size: number },
  total: number,
): { done: number; total: number } {
  // Main's progress of the run before may still be the last one told: only the run of this size counts.
  const current = progress && progress.total === before.size ? Math.min(progress.done, before.size) : 0;
  return { done: before.done + current, total };
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
