import { useMemo, useState } from 'react';
import type { ErrorInfo } from '../../shared/errors.ts';
import type { Panel, SessionResult } from '../../shared/types.ts';
import { copyText } from '../copy-text.ts';
import { knownSessionFields, maskSecrets, relativeTime } from '../session-fields.ts';
import { JsonTree } from './json-tree.tsx';

export interface SessionState {
  result: SessionResult | null;
  loading: boolean;
  error: ErrorInfo | null;
}

interface SessionViewProps {
  panel: Panel;
  state: SessionState;
  onRefresh(): void;
}

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const time = new Intl.DateTimeFormat(undefined, { timeStyle: 'medium' });

export function SessionView({ panel, state, onRefresh }: SessionViewProps) {
  const { result, loading, error } = state;
  const masked = useMemo(() => (result ? maskSecrets(result.session) : null), [result]);
  return (
    <section className="session-view" aria-labelledby="session-title" aria-busy={loading}>
      <div className="section-bar">
        <h2 id="session-title">Session</h2>
        <span className="muted" role="status">
          {loading ? 'Reading the session…' : result ? `Checked at ${time.format(new Date(result.checkedAt))}` : ''}
        </span>
        <button type="button" onClick={onRefresh} disabled={loading}>
          {loading && <span className="spinner" aria-hidden="true" />}
          {loading ? 'Refreshing…' : 'Refresh'}
        </button>
      </div>
      {panel.tokenStorage === 'memory' && (
        <div className="notice notice-info">
          <p>
            <strong>Token not saved:</strong> no secure storage on this system. It is kept in memory only, so you log in again
            after restarting Paneldeck.
          </p>
        </div>
      )}
      {error && (
        <div className="notice notice-error" role="alert">
          <p>{error.message}</p>
        </div>
      )}
      {result && <SessionSummary session={result.session} />}
      {masked !== null && <SessionData masked={masked} />}
    </section>
  );
}

function SessionSummary({ session }: { session: unknown }) {
  const fields = knownSessionFields(session);
  const rows: [string, string][] = [];
  if (fields.user) rows.push(['User', fields.user]);
  if (fields.email) rows.push(['Email', fields.email]);
  if (fields.name) rows.push(['Name', fields.name]);
  if (fields.role) rows.push(['Role', fields.role]);
  const expiry = fields.expiresAt;
  if (rows.length === 0 && !expiry) return null;
  return (
    <dl className="card summary">
      {rows.map(([label, value]) => (
        <div key={label} className="summary-row">
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
      {expiry && (
        <div className="summary-row">
          <dt>{expiry.getTime() > Date.now() ? 'Expires' : 'Expired'}</dt>
          <dd>
            <time dateTime={expiry.toISOString()}>{dateTime.format(expiry)}</time>{' '}
            <span className="muted">({relativeTime(expiry, new Date())})</span>
          </dd>
        </div>
      )}
    </dl>
  );
}

function SessionData({ masked }: { masked: unknown }) {
  const [copied, setCopied] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copy = async () => {
    setCopied((await copyText(JSON.stringify(masked, null, 2))) ? 'copied' : 'failed');
  };
  return (
    <section className="card session-data" aria-labelledby="session-data-title">
      <div className="section-bar">
        <h3 id="session-data-title">Everything the panel returned</h3>
        <span className="muted" role="status">
          {copied === 'copied' ? 'Copied (secret values stay masked).' : copied === 'failed' ? 'Could not copy: the clipboard is not available.' : ''}
        </span>
        <button type="button" onClick={() => void copy()}>
          Copy as JSON
        </button>
      </div>
      <JsonTree value={masked} />
    </section>
  );
}
