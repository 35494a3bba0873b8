import { useMemo, useState, type ReactNode } from 'react';
import type { ErrorInfo } from '../../shared/contract/errors.ts';
import { agoText, HOUR_MS, relativeText } from '../../shared/durations.ts';
import type { Panel, SessionResult } from '../../shared/types.ts';
import { useNow, usePanelChanges } from '../window/app-context.tsx';
import { copyText } from '../ui/copy-text.ts';
import { formatCount, measureJson } from '../ui/json-rows.ts';
import { isApiTokenSignIn, lastCheckFailed } from '../ui/panel-status.ts';
import { knownSessionFields, maskSecrets } from './session-fields.ts';
import { CertificateNotice, isCertificateProblem, PanelAccounts } from '../sign-in/views.tsx';
import { JsonTree } from '../ui/json-tree.tsx';
import { madeOnce } from '../../shared/made-once.ts';

export interface SessionState {
  result: SessionResult | null;
  loading: boolean;
  error: ErrorInfo | null;
}

interface SessionViewProps {
  panel: Panel;
  state: SessionState;
  onRefresh(): void;
  /** Stops this panel's read under way (not a check of all panels); the session shown stays. */
  onCancel(): void;
}

const dateTime = madeOnce(() => new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }));

export function SessionView({ panel, state, onRefresh, onCancel }: SessionViewProps) {
  const { result, loading, error } = state;
  const { changed } = usePanelChanges();
  const now = useNow();
  const masked = useMemo(() => (result ? maskSecrets(result.session) : null), [result]);
  return (
    <section className="session-view" aria-labelledby="session-title" aria-busy={loading}>
      <div className="section-bar">
        <h2 id="session-title" tabIndex={-1}>
          Session
        </h2>
        <span className="muted" role="status">
          {loading ? (
            // What shows meanwhile is the last read (this run's cache, or the one before Refresh).
            result ? (
              `Refreshing; showing the session read ${agoText(Date.parse(result.checkedAt), now)}…`
            ) : (
              'Reading the session…'
            )
          ) : result ? (
            // After a failed refresh the session below is the last one read, not a current one.
            <time dateTime={result.checkedAt} title={dateTime().format(new Date(result.checkedAt))}>
              {`${error ? 'Last read' : 'Checked'} ${agoText(Date.parse(result.checkedAt), now)}`}
            </time>
          ) : error ? (
            ''
          ) : (
            // A read cancelled before it answered: nothing was read, and nothing is wrong.
            'Not read. Refresh reads the session.'
          )}
        </span>
        {loading ? (
          <span className="section-actions">
            <button type="button" disabled>
              <span className="spinner" aria-hidden="true" />
              Refreshing…
            </button>
            <button type="button" onClick={onCancel} title="Stops reading this session; a check of all panels under way goes on">
              Cancel
            </button>
          </span>
        ) : (
          <button type="button" onClick={onRefresh}>
            Refresh
          </button>
        )}
      </div>
      {panel.tokenStorage === 'weak' && (
        <div className="notice notice-info">
          <p>
            <strong>Token saved with weak protection:</strong> this system has no keyring, and you chose in Preferences to keep tokens on
            disk anyway.
          </p>
        </div>
      )}
      {panel.tokenStorage === 'memory' && (
        <div className="notice notice-info">
          <p>
            <strong>Token not saved:</strong> no secure storage on this system. It is kept in memory only, so you log in again after
            restarting Paneldeck.
          </p>
        </div>
      )}
      {isCertificateProblem(error) && (
        <CertificateNotice
          panel={panel}
          error={error}
          onTrusted={(trusted) => {
            changed([trusted]);
            onRefresh();
          }}
        />
      )}
      {error && !isCertificateProblem(error) && (
        <div className="notice notice-error" role="alert">
          <p className="notice-title">
            {result ? 'Could not refresh the session; the one below is from the last read' : 'Could not read the session'}
          </p>
          <p>{error.message}</p>
        </div>
      )}
      {result && (
        // Side by side on a wide window: the summary beside the whole answer.
        <div className="session-body">
          <SessionSummary
            session={result.session}
            signedInAs={panel.lastEmail}
            apiToken={isApiTokenSignIn(panel)}
            lastKnown={lastCheckFailed(panel)}
            now={now}
          />
          {/* Any answer shows, null and bare values too: an empty view would look like a failure. */}
          <SessionData masked={masked} />
        </div>
      )}
      {(panel.signedIn || panel.accounts.length > 0) && <PanelAccounts panel={panel} />}
    </section>
  );
}

function SessionSummary({
  session,
  signedInAs,
  apiToken,
  lastKnown,
  now,
}: {
  session: unknown;
  signedInAs: string | null;
  /** Signed in with an API token: it has no end (whatever date the panel gives), and the last log in's email is not its account. */
  apiToken: boolean;
  /** The last check failed: the end shown is the one the panel gave before, which may no longer hold. */
  lastKnown: boolean;
  now: number;
}) {
  const fields = knownSessionFields(session);
  const rows: [string, ReactNode][] = [];
  // When it ends comes first: it is what decides whether to act now.
  const expiry = apiToken ? undefined : fields.expiresAt;
  if (apiToken) rows.push(['Signed in with', 'An API token: it does not expire, and stays valid until it is revoked in Easypanel']);
  if (expiry) {
    const ended = expiry.getTime() <= now;
    rows.push([
      ended ? 'Expired' : lastKnown ? 'Expires (last known)' : 'Expires',
      <>
        <strong className={ended ? 'meta-ended' : lastKnown ? undefined : expiry.getTime() - now < HOUR_MS ? 'meta-soon' : undefined}>
          {relativeText(expiry.getTime(), now)}
        </strong>{' '}
        <span className="muted">
          (<time dateTime={expiry.toISOString()}>{dateTime().format(expiry)}</time>)
        </span>
      </>,
    ]);
  }
  if (fields.user) rows.push(['User', fields.user]);
  if (fields.email) rows.push(['Email', fields.email]);
  // Many sessions (Easypanel's) carry no email: the account this panel is signed in with says who.
  else if (signedInAs && !apiToken) rows.push(['Signed in as', signedInAs]);
  if (fields.name) rows.push(['Name', fields.name]);
  if (fields.role) rows.push(['Role', fields.role]);
  if (fields.createdAt)
    rows.push(['Session began', `${dateTime().format(fields.createdAt)} (${relativeText(fields.createdAt.getTime(), now)})`]);
  // The account alone says nothing the header does not: it shows beside other session fields only.
  if (rows.length === 0 || (rows.length === 1 && rows[0]![0] === 'Signed in as')) return null;
  return (
    <dl className="card summary">
      {rows.map(([label, value]) => (
        <div key={label} className="summary-row">
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** Past this depth Copy leaves out indentation, which would grow with the square of the depth. */
const COPY_INDENT_DEPTH = 64;

type CopyState = 'idle' | 'copied' | 'failed' | 'too-deep';

const copyMessages: Record<CopyState, string> = {
  idle: '',
  copied: 'Copied (secret values stay masked).',
  failed: 'Could not copy: the clipboard is not available.',
  'too-deep': 'Could not copy: the answer is nested too deeply to write out as text.',
};

function SessionData({ masked }: { masked: unknown }) {
  const [copied, setCopied] = useState<CopyState>('idle');
  const stats = useMemo(() => measureJson(masked), [masked]);
  const copy = async () => {
    let text: string;
    try {
      text = JSON.stringify(masked, null, stats.depth > COPY_INDENT_DEPTH ? undefined : 2);
    } catch {
      // JSON.stringify recurses: an answer main could parse may still be too deep for it.
      setCopied('too-deep');
      return;
    }
    setCopied((await copyText(text)) ? 'copied' : 'failed');
  };
  // Every value under the top one, as the tree counts them: a top object of five keys is "5 values in all".
  const values = stats.branches + stats.leaves - 1;
  return (
    <section className="card session-data" aria-labelledby="session-data-title">
      <div className="section-bar">
        <h3 id="session-data-title">Everything the panel returned</h3>
        <span className="muted" role="status">
          {copyMessages[copied]}
        </span>
        <button type="button" onClick={() => void copy()}>
          Copy as JSON
        </button>
      </div>
      <p className="muted json-stats">
        {stats.branches > 0
          ? `${formatCount(values)} value${values === 1 ? '' : 's'} in all, ${formatCount(stats.depth)} level${stats.depth === 1 ? '' : 's'} deep`
          : `A single ${masked === null ? 'null' : typeof masked}, not an object: the panel sent no details.`}
      </p>
      <JsonTree value={masked} label="The session as the panel returned it" />
    </section>
  );
}
