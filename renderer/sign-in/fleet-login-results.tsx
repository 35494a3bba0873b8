import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { OUTCOME_WORDS, type FleetLogInResult } from '../../shared/fleet-login.ts';
import type { Panel } from '../../shared/types.ts';
import { useApi, usePanelChanges, usePanels } from '../window/app-context.tsx';
import { useBusyAction } from '../window/busy-action.ts';
import { failureInfo } from '../window/failure-info.ts';
import { otherFailures, outcomeLines, refusedPanels, resultsToFinish, retriedResult, withOutcome } from './fleet-login.ts';
import { CertificateNotice, isCertificateProblem } from './certificate-notice.tsx';
import { CodeField } from './code-field.tsx';
import { CertificateReview, certificatesToReview } from './certificate-review.tsx';
import { TextField } from '../ui/text-field.tsx';

/** What the operator typed once in the dialog, sent again by the rows they finish. */
export interface FleetCredentials {
  email: string;
  password: string;
  rememberMe: boolean;
}

interface FleetLoginResultsProps {
  results: readonly FleetLogInResult[];
  onChange(results: FleetLogInResult[]): void;
  /** What was sent to each panel (its group's, or the one pair for all), sent again by the row finished. */
  credentials(panelId: string): FleetCredentials;
  /** Back to the dialog's form for these panels (the refused), each group with its own password. */
  onLogInAgain(panelIds: readonly string[]): void;
  /** The email and password pairs each panel refused in this dialog: never sent to it again. */
  refusals: Refusals;
  onClose(): void;
}

/**
 * Every panel's outcome, counted; the panels that need a code, a certificate trusted or another
 * password listed to finish one by one (Up/Down to move, Enter to open one, Enter again to send);
 * the other failures with what each panel said.
 */
export function FleetLoginResults({ results, onChange, credentials, onLogInAgain, refusals, onClose }: FleetLoginResultsProps) {
  const { byId } = usePanels();
  // Certificates not trusted yet are reviewed together, above; the rest are finished one by one.
  const review = certificatesToReview(results, byId);
  // The results as they are when a review's trusts end (codes may have been finished meanwhile).
  const latest = useRef(results);
  latest.current = results;
  const reviewed = new Set(review.map(({ panel }) => panel.id));
  const toFinish = resultsToFinish(results).filter((result) => !reviewed.has(result.panelId));
  const others = otherFailures(results);
  const refused = refusedPanels(results);
  const [open, setOpen] = useState<string | null>(null);
  const list = useRef<HTMLUListElement>(null);
  const rows = () => [...(list.current?.querySelectorAll<HTMLButtonElement>('.fleet-finish-row') ?? [])];

  // A row finished leaves the list: the keyboard goes on to the next one.
  const finishedAt = useRef<number | null>(null);
  useEffect(() => {
    const at = finishedAt.current;
    if (at === null) return;
    finishedAt.current = null;
    rows()[Math.min(at, toFinish.length - 1)]?.focus();
  });
  const update = (next: FleetLogInResult, index: number) => {
    const updated = withOutcome(results, next);
    if (next.outcome === 'signedIn') {
      // Codes are a queue: the next panel that needs one opens with its field ready, so Enter
      // sends a code and the keyboard is at the next; anything else, the keyboard goes to its row.
      const following = resultsToFinish(updated).filter((result) => !reviewed.has(result.panelId))[index];
      const wasCode = results.find((result) => result.panelId === next.panelId)?.outcome === 'needsCode';
      if (wasCode && following?.outcome === 'needsCode') setOpen(following.panelId);
      else {
        finishedAt.current = index;
        setOpen(null);
      }
    }
    onChange(updated);
  };
  const move = (event: KeyboardEvent<HTMLUListElement>) => {
    const step = event.key === 'ArrowDown' ? 1 : event.key === 'ArrowUp' ? -1 : 0;
    const buttons = rows();
    const index = buttons.indexOf(document.activeElement as HTMLButtonElement);
    if (step === 0 || index < 0) return;
    event.preventDefault();
    buttons[(index + step + buttons.length) % buttons.length]?.focus();
  };

  return (
    <div className="fleet-results">
      <ul className="fleet-outcomes" aria-label="Outcomes">
        {outcomeLines(results).map(({ outcome, text }) => (
          <li key={outcome} className={`fleet-outcome outcome-${outcome}`}>
            {text}
          </li>
        ))}
      </ul>
      {review.length > 0 && (
        <CertificateReview
          items={review}
          credentials={credentials}
          onResults={(next) => onChange(next.reduce<FleetLogInResult[]>((all, one) => withOutcome(all, one), [...latest.current]))}
        />
      )}
      {toFinish.length > 0 && (
        <section aria-labelledby="fleet-finish-title">
          <h3 id="fleet-finish-title">To finish ({toFinish.length.toLocaleString('en')})</h3>
          <p className="muted">Up and Down move through them; Enter opens one to finish it here.</p>
          {refused.length > 1 && (
            <p>
              <button type="button" onClick={() => onLogInAgain(refused)}>
                Log in again to the {refused.length.toLocaleString('en')} refused, with each group’s own password…
              </button>
            </p>
          )}
          <ul ref={list} className="fleet-finish-list" onKeyDown={move}>
            {toFinish.map((result, index) => {
              const panel = byId.get(result.panelId);
              if (!panel) return null;
              const expanded = open === result.panelId;
              return (
                <li key={result.panelId}>
                  <button
                    type="button"
                    className="fleet-finish-row"
                    aria-expanded={expanded}
                    // biome-ignore lint/a11y/noAutofocus: the first panel to finish is where the operator goes next
                    autoFocus={index === 0}
                    onClick={() => setOpen(expanded ? null : result.panelId)}
                  >
                    <span className="fleet-finish-name">{panel.name}</span>
                    <span className="muted">{panel.address}</span>
                    <span className={`fleet-finish-need outcome-${result.outcome}`}>
                      {OUTCOME_WORDS[result.outcome].replace(/^need /, 'needs ')}
                    </span>
                  </button>
                  {expanded && (
                    <FinishPanel
                      panel={panel}
                      result={result}
                      credentials={credentials(panel.id)}
                      refusals={refusals}
                      onResult={(next) => update(next, index)}
                    />
                  )}
                </li>
              );
            })}
          </ul>
        </section>
      )}
      {others.length > 0 && (
        <details className="fleet-other-failures">
          <summary>Other outcomes ({others.length.toLocaleString('en')})</summary>
          <ul>
            {others.map((result) => (
              <li key={result.panelId}>
                <strong>{byId.get(result.panelId)?.name ?? 'A removed panel'}</strong>:{' '}
                {'error' in result ? result.error.message : OUTCOME_WORDS[result.outcome]}
              </li>
            ))}
          </ul>
        </details>
      )}
      <div className="form-actions">
        {/* biome-ignore lint/a11y/noAutofocus: with nothing to finish, Done is the next step */}
        <button type="button" className="button-primary" autoFocus={toFinish.length === 0} onClick={onClose}>
          Done
        </button>
      </div>
    </div>
  );
}

interface FinishPanelProps {
  panel: Panel;
  result: FleetLogInResult;
  credentials: FleetCredentials;
  refusals: Refusals;
  onResult(next: FleetLogInResult): void;
}

/** What each panel refused in a fleet log in's dialog (keyed by `credentialsKey`). */
export interface Refusals {
  has(panelId: string, credentials: { email: string; password: string }): boolean;
  add(panelId: string, credentials: { email: string; password: string }): void;
}

/** One panel's last step, in place: its code, its certificate, or its own password. */
function FinishPanel({ panel, result, credentials, refusals, onResult }: FinishPanelProps) {
  const api = useApi();
  const { changed } = usePanelChanges();
  const { busy, run } = useBusyAction();
  const [typed, setTyped] = useState('');
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => first.current?.focus(), []);
  const error = 'error' in result ? result.error : null;
  // A password this panel refused already in this dialog is not sent to it again (a lockout risk).
  const [refusedBefore, setRefusedBefore] = useState(false);

  const attempt = (extra: { password?: string; code?: string }) => {
    const sent = { email: credentials.email, password: extra.password ?? credentials.password };
    if (extra.password !== undefined && refusals.has(panel.id, sent)) {
      setRefusedBefore(true);
      setTyped('');
      first.current?.focus();
      return;
    }
    return run(async () => {
      try {
        const signedIn = await api.logIn(panel.id, { ...sent, rememberMe: credentials.rememberMe, ...extra });
        changed([signedIn]);
        onResult({ panelId: panel.id, outcome: 'signedIn' });
      } catch (caught) {
        const next = retriedResult(result, failureInfo(caught));
        if (next.outcome === 'wrongPassword') refusals.add(panel.id, sent);
        onResult(next);
        setTyped('');
      }
    });
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void attempt(result.outcome === 'needsCode' ? { code: typed } : { password: typed });
  };

  if (isCertificateProblem(error)) {
    return (
      <div className="fleet-finish">
        <CertificateNotice
          panel={panel}
          error={error}
          onTrusted={(trusted) => {
            changed([trusted]);
            void attempt({});
          }}
        />
      </div>
    );
  }
  return (
    <form className="fleet-finish" onSubmit={submit} aria-busy={busy}>
      {result.outcome === 'needsCode' ? (
        <CodeField
          ref={first}
          value={typed}
          onChange={setTyped}
          disabled={busy}
          error={error?.code === 'TWO_FACTOR_REQUIRED' ? null : (error?.message ?? null)}
        />
      ) : (
        <TextField
          ref={first}
          label={`Password for ${panel.name}`}
          name="password"
          type="password"
          autoComplete="current-password"
          required
          value={typed}
          disabled={busy}
          error={refusedBefore ? `${panel.name} refused this password already: type another.` : (error?.message ?? null)}
          onChange={(event) => {
            setTyped(event.target.value);
            setRefusedBefore(false);
          }}
        />
      )}
      <div className="form-actions">
        <button type="submit" className="button-primary" disabled={busy || typed === ''}>
          {busy ? 'Logging in…' : 'Log in'}
        </button>
      </div>
    </form>
  );
}
