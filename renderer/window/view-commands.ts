import type { CommandHandler } from './command-registry.ts';
import { FLEET_VIEWS, type FleetView, type LocationStore } from './location-store.ts';

/**
 * Each fleet view's command (shared/contract/commands.ts: the palette, the menu, its shortcut)
 * shows that view. It opens and never closes: a menu item or a shortcut does what it says, and the
 * sidebar's buttons are the ones that toggle.
 */
export function viewCommands(locationStore: Pick<LocationStore, 'show'>): Record<FleetView, CommandHandler> {
  return Object.fromEntries(FLEET_VIEWS.map((view) => [view, () => locationStore.show(view)])) as Record<FleetView, CommandHandler>;
}
