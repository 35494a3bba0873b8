import { lazyView } from '../ui/lazy-view.tsx';

/**
 * The deployments feature's React parts (views and hooks) that the rest of the window uses; its
 * other files are its own. Loaded when the tab is first opened (docs/architecture.md, "What loads at start").
 */
export const DeploymentsView = lazyView('the deployments view', () =>
  import('./deployments-view.tsx').then((module) => module.DeploymentsView),
);
