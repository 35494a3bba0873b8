/**
 * `login`: the log in form of a signed-in panel (Log in again); a signed-out panel's is its `session`
 * tab. `overview` and `services` are a signed-in panel's, read through main in the background.
 */
export type Tab = 'overview' | 'services' | 'session' | 'login' | 'actions' | 'deployments' | 'logs' | 'settings';

/** The tabs only a signed-in panel has: a signed-out one shows its log in under "Log in" instead. */
const SIGNED_IN_TABS: ReadonlySet<Tab> = new Set(['overview', 'services', 'actions', 'deployments', 'logs']);

/** The panel view's tabs: what a signed-in panel has (Overview, Services, Session, Log in again, Actions, Deployments, Logs), then Settings. */
export function PanelTabs({ tab, signedIn, onTab }: { tab: Tab; signedIn: boolean; onTab(tab: Tab): void }) {
  // A panel signed out while its Overview or Services showed now shows its log in, under "Log in".
  const pressed = (which: Tab) => tab === which || (which === 'session' && !signedIn && SIGNED_IN_TABS.has(tab));
  const button = (which: Tab, label: string) => (
    <button type="button" aria-pressed={pressed(which)} onClick={() => onTab(which)}>
      {label}
    </button>
  );
  return (
    // biome-ignore lint/a11y/useSemanticElements: toggle buttons, not a form: a fieldset would bring form semantics
    <div className="tabs" role="group" aria-label="Panel view">
      {signedIn && button('overview', 'Overview')}
      {signedIn && button('services', 'Services')}
      {button('session', signedIn ? 'Session' : 'Log in')}
      {signedIn && button('login', 'Log in again')}
      {signedIn && button('actions', 'Actions')}
      {signedIn && button('deployments', 'Deployments')}
      {signedIn && button('logs', 'Logs')}
      {button('settings', 'Settings')}
    </div>
  );
}
