import { lazyView } from '../ui/lazy-view.tsx';

/**
 * The logs feature's React parts (views and hooks) that the rest of the window uses; its other
 * files are its own. The logs tab loads when first opened (docs/architecture.md, "What loads at
 * start"); the lines and the service picker are the deployments view's too, and small.
 */
export { LogLines } from './log-lines-view.tsx';
export { ServicePicker, useRememberedService } from './service-picker.tsx';
export const LogsView = lazyView('the logs view', () => import('./logs-view.tsx').then((module) => module.LogsView));
