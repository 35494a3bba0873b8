import { useCallback, useEffect, useRef, useState } from 'react';
import type { PanelApi } from '../../shared/contract.ts';
import type { ErrorInfo } from '../../shared/errors.ts';
import type { Panel, SessionResult } from '../../shared/types.ts';
import { failureInfo } from '../panel-api.ts';
import { panelStatus, signedOutNotice } from '../panel-status.ts';
import { ErrorBoundary } from './error-boundary.tsx';
import { LoginForm } from './login-form.tsx';
import { PanelSettings } from './panel-settings.tsx';
import { SessionView, type SessionState } from './session-view.tsx';

interface PanelViewProps {
  api: PanelApi;
  panel: Panel;
  onPanelChanged(panel: Panel): void;
  onRemoved(id: string): void;
  /** The panel changed in main (signed out by the server, removed elsewhere): read the list again. */
  onStale(): Promise<void>;
}

type Tab = 'session' | 'settings';

const noSession: SessionState = { result: null, loading: false, error: null };

export function PanelView({ api, panel, onPanelChanged, onRemoved, onStale }: PanelViewProps) {
  const [tab, setTab] = useState<Tab>('session');
  const [openAdvanced, setOpenAdvanced] = useState(false);
  const [session, setSession] = useState<SessionState>(noSession);
  const requested = useRef(false);

  const loadSession = useCallback(async () => {
    setSession((state) => ({ ...state, loading: true }));
    let result: SessionResult | null = null;
    let error: ErrorInfo | null = null;
    try {
      result = await api.getSession(panel.id);
    } catch (caught) {
      error = failureInfo(caught);
    }
    setSession((state) => ({ result: result ?? state.result, loading: false, error }));
    // The read changed the panel's last check, or signed it out (the effect below then clears
    // the session) or found it removed (this view goes): refresh the list's view of it.
    await onStale();
  }, [api, panel.id, onStale]);

  useEffect(() => {
    if (!panel.signedIn) {
      // A later log in (maybe another account) must never show this session.
      requested.current = false;
      setSession(noSession);
    } else if (!requested.current) {
      requested.current = true;
      void loadSession();
    }
  }, [panel.signedIn, loadSession]);

  // "Try again" on a broken session view: drop the answer that broke it and read a fresh one.
  const retryView = () => {
    if (tab !== 'session' || !panel.signedIn) return;
    setSession(noSession);
    void loadSession();
  };

  const status = panelStatus(panel);
  const notice = signedOutNotice(panel);
  const showSettings = (advanced: boolean) => {
    setOpenAdvanced(advanced);
    setTab('settings');
  };
  return (
    <article className="panel-view" aria-labelledby="panel-title">
      <header className="panel-header">
        <div className="panel-heading">
          <h1 id="panel-title">{panel.name}</h1>
          <p className="panel-address">
            {panel.address}
            <span className={`status-badge status-${status.kind}`}>
              <span className={`status-dot status-${status.kind}`} aria-hidden="true" />
              {status.label}
            </span>
          </p>
        </div>
        <div className="tabs" role="group" aria-label="Panel view">
          <button type="button" aria-pressed={tab === 'session'} onClick={() => setTab('session')}>
            {panel.signedIn ? 'Session' : 'Log in'}
          </button>
          <button type="button" aria-pressed={tab === 'settings'} onClick={() => showSettings(false)}>
            Settings
          </button>
        </div>
      </header>
      {/* A body that fails to render leaves the header and tabs usable; switching tab starts afresh. */}
      <ErrorBoundary key={tab} onReset={retryView}>
        {tab === 'settings' ? (
          <PanelSettings api={api} panel={panel} openAdvanced={openAdvanced} onChanged={onPanelChanged} onRemoved={onRemoved} />
        ) : panel.signedIn ? (
          <SessionView panel={panel} state={session} onRefresh={() => void loadSession()} />
        ) : (
          <>
            {notice && (
              <div className="notice notice-warning" role="alert">
                <p className="notice-title">{notice.title}</p>
                <p className="notice-detail">{notice.detail}</p>
              </div>
            )}
            <LoginForm api={api} panel={panel} onLoggedIn={onPanelChanged} onOpenSettings={() => showSettings(true)} onStale={onStale} />
          </>
        )}
      </ErrorBoundary>
    </article>
  );
}
