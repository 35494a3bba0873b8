import { lazyView } from '../ui/lazy-view.tsx';

/**
 * The console feature's React parts (views and hooks) that the rest of the window uses; its other
 * files are its own. The store of what was asked is the window's from the start (it outlives the
 * tab); the console tab and the fleet console load when first opened, the forms, answers and
 * history with them (docs/architecture.md, "What loads at start").
 */
export { ConsoleStoreProvider } from './console-store-context.tsx';
export const ConsoleTab = lazyView('the console', () => import('./console-tab.tsx').then((module) => module.ConsoleTab));
export const FleetConsoleView = lazyView('the fleet console', () =>
  import('./fleet-console-view.tsx').then((module) => module.FleetConsoleView),
);
