import { lazyView } from '../ui/lazy-view.tsx';

/**
 * The alerts feature's React parts (views and hooks) that the rest of the window uses; its other
 * files are its own. The start's summary shows at start; the alerts view loads when first opened
 * (docs/architecture.md, "What loads at start").
 */
export { StartSummaryNotice } from './start-summary.tsx';
export const AlertsView = lazyView('the alerts view', () => import('./alerts-view.tsx').then((module) => module.AlertsView));
