import { type ReactNode, useEffect, useRef } from 'react';
import type { Panel } from '../../shared/types.ts';
import { ConsoleTab } from '../console/views.tsx';
import { DeploymentsView } from '../deployments/views.tsx';
import { LogsView } from '../logs/views.tsx';
import { OverviewTab } from './overview-tab.tsx';
import { ServicesTab } from '../services/views.tsx';
import type { PanelTab } from '../window/view-commands.ts';

/** The panel view's tabs (renderer/window/view-commands.ts, where each has its command). */
export type Tab = PanelTab;

/** The tabs that show what is read from a signed-in panel through main, each one view. */
const READ_TABS = {
  overview: OverviewTab,
  services: ServicesTab,
  deployments: DeploymentsView,
  logs: LogsView,
  console: ConsoleTab,
} as const satisfies Partial<Record<Tab, (props: { panel: Panel }) => ReactNode>>;
type ReadTab = keyof typeof READ_TABS;

/** The tabs only a signed-in panel has (a signed-out one shows its log in under "Log in" instead). */
export const isReadTab = (tab: Tab): tab is ReadTab => Object.hasOwn(READ_TABS, tab);

/** The tabs whose view starts afresh for another panel: what was picked in them (a service) was that panel's. */
const PER_PANEL: ReadonlySet<Tab> = new Set(['deployments', 'logs', 'console']);

/** A read tab's view. */
export function ReadTabView({ tab, panel }: { tab: ReadTab; panel: Panel }) {
  const View = READ_TABS[tab];
  return <View key={PER_PANEL.has(tab) ? panel.id : undefined} panel={panel} />;
}

/** The panel view's tabs: what a signed-in panel has (Overview, Services, Session, Log in again, Deployments, Logs, Console), then Settings. */
export function PanelTabs({ tab, signedIn, onTab }: { tab: Tab; signedIn: boolean; onTab(tab: Tab): void }) {
  // A panel signed out while its Overview or Services showed now shows its log in, under "Log in".
  const pressed = (which: Tab) => tab === which || (which === 'session' && !signedIn && isReadTab(tab));
  // The row scrolls sideways when narrow: the tab shown is brought into it (opened from a menu or a service row).
  const row = useRef<HTMLDivElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `tab` and `signedIn` say when to look again: the pressed button is read from the page
  useEffect(() => {
    const box = row.current;
    if (!box) return;
    // As little as it takes (not scrollIntoView, which would scroll the page too), measured to the
    // fraction of a pixel inside the row's border, rounded up so no sliver stays cut.
    const bring = () => {
      const shown = box.querySelector<HTMLElement>('[aria-pressed="true"]');
      if (!shown) return;
      const inner = box.getBoundingClientRect().left + box.clientLeft;
      const { left, right } = shown.getBoundingClientRect();
      if (left < inner) box.scrollLeft -= Math.ceil(inner - left);
      else if (right > inner + box.clientWidth) box.scrollLeft += Math.ceil(right - inner - box.clientWidth);
    };
    bring();
    // A window made narrower (or the view beside the table) cuts the row anew.
    const observer = new ResizeObserver(bring);
    observer.observe(box);
    return () => observer.disconnect();
  }, [tab, signedIn]);
  const button = (which: Tab, label: string) => (
    <button type="button" aria-pressed={pressed(which)} onClick={() => onTab(which)}>
      {label}
    </button>
  );
  return (
    // biome-ignore lint/a11y/useSemanticElements: toggle buttons, not a form: a fieldset would bring form semantics
    <div className="tabs" role="group" aria-label="Panel view" ref={row}>
      {signedIn && button('overview', 'Overview')}
      {signedIn && button('services', 'Services')}
      {button('session', signedIn ? 'Session' : 'Log in')}
      {signedIn && button('login', 'Log in again')}
      {signedIn && button('deployments', 'Deployments')}
      {signedIn && button('logs', 'Logs')}
      {signedIn && button('console', 'Console')}
      {button('settings', 'Settings')}
    </div>
  );
}
