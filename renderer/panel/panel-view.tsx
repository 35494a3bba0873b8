import { accountLabel } from '../../shared/accounts.ts';
import { fleetFileName } from '../../shared/fleet-file.ts';
import { useFleetFiles } from '../window/use-fleet-files.ts';
import { useCallback, useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import type { ErrorInfo } from '../../shared/contract/errors.ts';
import { versionLabel } from '../../shared/panel-version.ts';
import type { Panel, SessionResult } from '../../shared/types.ts';
import { commandShellFor, curlCommand, dashboardUrl } from '../../shared/session-url.ts';
import {
  useCommandHandlers,
  useHealth,
  useLocation,
  usePanelChanges,
  usePanels,
  useStatus,
  useWindowContext,
} from '../window/app-context.tsx';
import { copyText } from '../ui/copy-text.ts';
import { failureInfo } from '../window/failure-info.ts';
import { isApiTokenSignIn, lastCheckFailed, signedOutNotice } from '../ui/panel-status.ts';
import { StateBadge } from './state-badge.tsx';
import { panelListElement } from '../window/window-commands.ts';
import { ErrorBoundary } from '../ui/error-boundary.tsx';
import { ExpiryBadge } from './expiry-badge.tsx';
import { PlainHttpBadge } from '../ui/plain-http.tsx';
import { LoginForm } from '../sign-in/views.tsx';
import { fleetEmail } from '../sign-in/index.ts';
import { PanelLabels } from './panel-labels.tsx';
import { isReadTab, PanelTabs, ReadTabView, type Tab } from './panel-tabs.tsx';
import { useTabRequest } from '../window/tab-request.ts';
import { PANEL_TAB_COMMANDS } from '../window/view-commands.ts';
import { PanelSettings } from './panel-settings.tsx';
import { SessionView, type SessionState } from '../session/views.tsx';

interface PanelViewProps {
  panel: Panel;
  /** Every group in use, offered in the settings. */
  groups: readonly string[];
}

const noSession: SessionState = { result: null, loading: false, error: null };

/** How long a panel is shown before its session is read again. */
const READ_AFTER_MS = 200;

/**
 * One panel: its header, and its session (or the log in form) or its settings. Refresh, Log in,
 * Log out, Settings, Remove and the copy commands reach it from the menu, a shortcut, the palette
 * or the row menu while it is shown.
 */
export function PanelView({ panel, groups }: PanelViewProps) {
  const { api, clock } = useWindowContext();
  const { changed } = usePanelChanges();
  const onPanelChanged = (updated: Panel) => changed([updated]);
  // When the session ends, if main warned that it ends soon; Preferences' email for panels never logged in to.
  const { expiring, panels } = usePanels();
  const expiresSoonAt = expiring.get(panel.id) ?? null;
  const { status: appStatus } = useStatus();
  const { focusRequest } = useLocation();
  // Else the email the fleet used most: imported panels have none of their own. Counted only for a
  // panel without an email of its own, and over the list in a render of its own: ten thousand
  // panels' emails are not counted before the first rows show.
  const preferencesEmail = appStatus?.settings.defaultEmail ?? null;
  const fleet = useDeferredValue(panels);
  const needsFleetEmail = !panel.lastEmail && preferencesEmail === null;
  const defaultEmail = useMemo(
    () => preferencesEmail ?? (needsFleetEmail ? fleetEmail(fleet ?? []) : null),
    [preferencesEmail, needsFleetEmail, fleet],
  );
  const { locationStore, reads } = useWindowContext();
  const [tab, setTab] = useState<Tab>('session');
  const [openAdvanced, setOpenAdvanced] = useState(false);
  const [session, setSession] = useState<SessionState>(noSession);
  const requested = useRef(false);
  /** The read about to start once the panel has been shown a moment: a Cancel meanwhile stops it here. */
  const pendingRead = useRef<ReturnType<typeof setTimeout> | null>(null);
  /** A fresh read has answered since the sign-in: the cached session must not replace what it said. */
  const answered = useRef(false);

  // What the read changes on the panel (last check, signed out by the server) comes as main's event.
  const loadSession = useCallback(async () => {
    setSession((state) => ({ ...state, loading: true }));
    let result: SessionResult | null = null;
    let error: ErrorInfo | null = null;
    try {
      result = await api.getSession(panel.id);
    } catch (caught) {
      error = failureInfo(caught);
    }
    answered.current = true;
    // The window's clock reads the time again: the read that just ended is "just now" everywhere.
    clock.catchUp();
    // Cancelled by the operator: the session shown stays, and that is not a failure to report.
    if (error?.code === 'CANCELLED') error = null;
    setSession((state) => ({ result: result ?? state.result, loading: false, error }));
  }, [api, clock, panel.id]);

  /** The last session read in this run, shown at once while the fresh read is under way. */
  const showCached = useCallback(async () => {
    let cached: SessionResult | null = null;
    try {
      cached = await api.getCachedSession(panel.id);
    } catch {
      return; // Only a head start: the fresh read says what is wrong.
    }
    if (cached && !answered.current) setSession((state) => (state.result ? state : { ...state, result: cached }));
  }, [api, panel.id]);

  useEffect(() => {
    if (!panel.signedIn) {
      // A later log in (maybe another account) must never show this session.
      requested.current = false;
      answered.current = false;
      setSession(noSession);
    } else if (!requested.current) {
      requested.current = true;
      void showCached();
      // Read after a moment: walking the list with the arrow keys passes panels without reading
      // each one; the cached session shows meanwhile, marked as being refreshed.
      setSession((state) => ({ ...state, loading: true }));
      const timer = setTimeout(() => {
        pendingRead.current = null;
        void loadSession();
      }, READ_AFTER_MS);
      pendingRead.current = timer;
      return () => {
        clearTimeout(timer);
        pendingRead.current = null;
        requested.current = false;
      };
    }
  }, [panel.signedIn, loadSession, showCached]);

  // A check elsewhere (background, or another call) read a newer session than the one shown: show
  // it from main's cache, without asking the panel again. An answer of our own read is not newer.
  const lastReadAt = panel.signedIn && panel.lastCheck?.ok ? panel.lastCheck.at : null;
  const shownAt = session.result?.checkedAt ?? null;
  useEffect(() => {
    if (lastReadAt === null || session.loading || !answered.current || (shownAt !== null && lastReadAt <= shownAt)) return;
    let current = true;
    api.getCachedSession(panel.id).then(
      (cached) => {
        if (!current || !cached) return;
        setSession((state) =>
          state.result && cached.checkedAt <= state.result.checkedAt ? state : { result: cached, loading: state.loading, error: null },
        );
      },
      () => undefined, // the next read says what is wrong
    );
    return () => {
      current = false;
    };
  }, [api, panel.id, lastReadAt, shownAt, session.loading]);

  // Cancel: this panel's read only (a check of all panels under way goes on); the session shown stays.
  const cancelRead = () => {
    if (pendingRead.current !== null) {
      clearTimeout(pendingRead.current);
      pendingRead.current = null;
      setSession((state) => ({ ...state, loading: false }));
      return;
    }
    void api.cancelSessionRead(panel.id).catch(() => undefined);
  };

  // "Try again" on a broken session view: drop the answer that broke it and read a fresh one.
  const retryView = () => {
    if (tab !== 'session' || !panel.signedIn) return;
    setSession(noSession);
    void loadSession();
  };

  const health = useHealth().get(panel.id);
  const notice = signedOutNotice(panel);
  const showSettings = (advanced: boolean) => {
    setOpenAdvanced(advanced);
    setTab('settings');
  };

  // Log out and Remove are the settings' own actions: the settings carry out the request.
  const [settingsAction, setSettingsAction] = useState<'logOut' | 'removePanel' | null>(null);
  const article = useRef<HTMLElement>(null);
  const focusIn = (selector: string) => requestAnimationFrame(() => article.current?.querySelector<HTMLElement>(selector)?.focus());
  /** The log in form, with the cursor at the password when the email is known (the panel's last, or Preferences'). */
  const openLogIn = () => {
    setTab(panel.signedIn ? 'login' : 'session');
    focusIn(`form.login-form input[name="${(panel.lastEmail ?? defaultEmail) ? 'password' : 'email'}"]`);
  };
  /** Opened by Enter in the list or from the palette: after the log in, the keyboard goes back to the panel's row. */
  const backToList = useRef(false);
  // After every render (cheap: nothing to do unless a request names this panel), so the newest form and email are used.
  useEffect(() => {
    if (focusRequest?.to !== 'logIn' || focusRequest.panelId !== panel.id) return;
    locationStore.focusRequestDone(focusRequest);
    backToList.current = true;
    openLogIn();
  });
  useTabRequest(panel.id, setTab);
  useCommandHandlers({
    refresh: () => {
      if (!panel.signedIn) return;
      if (tab === 'overview' || tab === 'services') return void (tab === 'overview' ? reads.stats : reads.services).load(panel.id);
      setTab('session');
      if (!session.loading) void loadSession();
    },
    logIn: () => {
      backToList.current = false;
      openLogIn();
    },
    settings: () => {
      showSettings(false);
      focusIn('#settings-title');
    },
    logOut: () => {
      if (!panel.signedIn) return;
      setTab('settings');
      setSettingsAction('logOut');
    },
    removePanel: () => {
      setTab('settings');
      setSettingsAction('removePanel');
    },
    // The palette's tabs: offered for a signed-in panel only, as its tab buttons are.
    ...Object.fromEntries(
      (['overview', 'services', 'session', 'deployments', 'logs', 'console'] as const).map((which) => [
        PANEL_TAB_COMMANDS[which],
        () => {
          if (panel.signedIn) setTab(which);
        },
      ]),
    ),
    // Main sends a new window's http(s) address to the system browser, after its own check.
    openDashboard: () => void window.open(dashboardUrl(panel), '_blank', 'noopener,noreferrer'),
    copyAddress: () => void copied(copyText(panel.address), `Copied the address ${panel.address}.`),
    copyCurl: () =>
      void copied(
        copyText(curlCommand(panel, commandShellFor(navigator.userAgent))),
        'Copied a curl command that reads the session. It holds no token, and Paneldeck never shows the one it keeps: ' +
          'set PANEL_TOKEN in your shell first, to an API token made in Easypanel (Settings, Users, API token).',
      ),
  });

  // What a copy from the menu or the palette did, said where the operator is looking.
  const [copyStatus, setCopyStatus] = useState('');
  const copied = async (copying: Promise<boolean>, done: string) => {
    setCopyStatus((await copying) ? done : 'Could not copy: the clipboard is not available.');
  };

  // After a log in the cursor goes to the session's heading, where the reading begins; or, when the
  // log in was opened from the list (or the palette), back to the panel's row, to go on to the next.
  const loggedIn = (updated: Panel) => {
    onPanelChanged(updated);
    if (updated.signedIn && backToList.current) requestAnimationFrame(() => panelListElement()?.focus());
    else if (updated.signedIn) focusIn('#session-title');
    backToList.current = false;
    // A log in again: the session read now is the new sign-in's (a first log in reads it as it signs in).
    if (tab === 'login') {
      setTab('session');
      void loadSession();
    }
  };
  // On a signed-in panel, a log in again: Cancel goes back to the session.
  const logInForm = (
    <LoginForm
      panel={panel}
      defaultEmail={defaultEmail}
      onLoggedIn={loggedIn}
      onTrusted={onPanelChanged}
      onOpenSettings={() => showSettings(true)}
      onCancel={panel.signedIn ? () => setTab('session') : undefined}
    />
  );
  return (
    <article ref={article} className="panel-view" aria-labelledby="panel-title">
      <header className={`panel-header${panel.colour ? ` colour-${panel.colour}` : ''}`}>
        <div className="panel-heading">
          <h1 id="panel-title">{panel.name}</h1>
          <p className="panel-address">
            {panel.address}
            {panel.panelVersion !== null && <span className="status-badge panel-version">{versionLabel(panel.panelVersion)}</span>}
            <StateBadge panel={panel} health={health} />
            {isApiTokenSignIn(panel) && <span className="status-badge">API token</span>}
            {panel.fleetFile && <SharedBadge fileId={panel.fleetFile} />}
            {panel.readOnly && (
              <span className="status-badge" title="Paneldeck plans no write for this panel (its Settings)">
                Read-only
              </span>
            )}
            <WriteAccountBadge panel={panel} />
            <PlainHttpBadge panel={panel} />
            {panel.signedIn && expiresSoonAt && <ExpiryBadge expiresAt={expiresSoonAt} lastKnown={lastCheckFailed(panel)} />}
          </p>
          <PanelLabels panel={panel} />
          <p className="copy-status muted" role="status">
            {copyStatus}
          </p>
        </div>
        <PanelTabs tab={tab} signedIn={panel.signedIn} onTab={(next) => (next === 'settings' ? showSettings(false) : setTab(next))} />
      </header>
      {/* A body that fails to render leaves the header and tabs usable; switching tab starts afresh. */}
      <ErrorBoundary key={tab} onReset={retryView}>
        {panel.signedIn && isReadTab(tab) ? (
          <ReadTabView tab={tab} panel={panel} />
        ) : tab === 'settings' ? (
          <PanelSettings
            panel={panel}
            pending={settingsAction}
            onPendingDone={() => setSettingsAction(null)}
            onLoggedOut={() => {
              // The session tab of a signed-out panel is its log-in form: the next thing to do there.
              setTab('session');
              focusIn(panel.lastEmail ? 'form.login-form input[name="password"]' : 'form.login-form input[name="email"]');
            }}
            groups={groups}
            openAdvanced={openAdvanced}
          />
        ) : panel.signedIn && tab === 'login' ? (
          logInForm
        ) : panel.signedIn ? (
          <SessionView panel={panel} state={session} onRefresh={() => void loadSession()} onCancel={cancelRead} />
        ) : (
          <>
            {notice && (
              <div className="notice notice-warning" role="alert">
                <p className="notice-title">{notice.title}</p>
                <p className="notice-detail">{notice.detail}</p>
              </div>
            )}
            {logInForm}
          </>
        )}
      </ErrorBoundary>
    </article>
  );
}

/** The panel is shared in a fleet file: which, by its name. */
function SharedBadge({ fileId }: { fileId: string }) {
  const file = useFleetFiles().find((one) => one.id === fileId);
  return (
    <span className="status-badge" title={file ? `Shared in ${file.path}` : 'Shared in a fleet file'}>
      {file ? `Shared: ${fleetFileName(file.path)}` : 'Shared'}
    </span>
  );
}

/** Writes go as another account than the panel's own sign-in: said where every view of the panel shows it. */
function WriteAccountBadge({ panel }: { panel: Panel }) {
  const account = panel.accounts.find(({ id }) => id === panel.writeAccount);
  if (!account || panel.readOnly) return null;
  const name = accountLabel(account.kind, account.email) ?? 'another account';
  return (
    <span className="status-badge" title="Chosen in the Session tab; reads go as the panel's own sign-in">
      {account.tokenStorage === null ? `Writes as ${name} (signed out)` : `Writes as ${name}`}
    </span>
  );
}
