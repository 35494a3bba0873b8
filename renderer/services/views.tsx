import { lazyView } from '../ui/lazy-view.tsx';

/**
 * The services feature's React parts (views and hooks) that the rest of the window uses; its other
 * files are its own. All services and a panel's Services tab load when first opened; what follows
 * the fleet's services in the background (index.ts) runs from the start (docs/architecture.md,
 * "What loads at start").
 */
export const FleetServicesView = lazyView('All services', () =>
  import('./all-services-view.tsx').then((module) => module.FleetServicesView),
);
export const ServicesTab = lazyView('the services tab', () => import('./services-tab.tsx').then((module) => module.ServicesTab));
