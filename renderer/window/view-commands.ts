import type { CommandId } from '../../shared/contract/commands.ts';
import type { CommandHandler } from './command-registry.ts';
import { FLEET_WIDE_VIEWS, type FleetWideView, type LocationStore } from './location-store.ts';

/**
 * Each fleet-wide view's command (shared/contract/commands.ts: the palette, the menu, its shortcut)
 * shows that view. It opens and never closes: a menu item or a shortcut does what it says, and the
 * panel list's buttons are the ones that toggle.
 */
export function viewCommands(locationStore: Pick<LocationStore, 'show'>): Record<FleetWideView, CommandHandler> {
  return Object.fromEntries(FLEET_WIDE_VIEWS.map((view) => [view, () => locationStore.show(view)])) as Record<
    FleetWideView,
    CommandHandler
  >;
}

/**
 * The tabs of one panel's view: `login` is a signed-in panel's log in again (a signed-out panel's
 * form is its `session` tab); `overview` and `services` are read through main in the background.
 */
export const PANEL_TABS = ['overview', 'services', 'session', 'login', 'deployments', 'logs', 'console', 'settings'] as const;
export type PanelTab = (typeof PANEL_TABS)[number];

/** Each tab's command (the palette): the compiler asks for one when a tab is added. */
export const PANEL_TAB_COMMANDS = {
  overview: 'showOverview',
  services: 'showServices',
  session: 'showSession',
  login: 'logIn',
  deployments: 'showDeployments',
  logs: 'showLogs',
  console: 'showConsole',
  settings: 'settings',
} as const satisfies Record<PanelTab, CommandId>;

/** The tabs only a signed-in panel has, as commands; a signed-out one has its log in and its settings. */
export const SIGNED_IN_TAB_COMMANDS = [
  'showOverview',
  'showServices',
  'showSession',
  'showDeployments',
  'showLogs',
  'showConsole',
] as const;

/** The commands that show a view (the palette's group "Views"), the rest doing something. */
export const VIEW_COMMANDS: ReadonlySet<CommandId> = new Set([...FLEET_WIDE_VIEWS, ...SIGNED_IN_TAB_COMMANDS]);
