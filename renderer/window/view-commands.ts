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
