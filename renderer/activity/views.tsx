import { lazyView } from '../ui/lazy-view.tsx';

/**
 * The activity feature's React parts (views and hooks) that the rest of the window uses; its other
 * files are its own. The timeline is opened from the menu, not at start: its code loads when it is
 * first shown (docs/architecture.md, "What loads at start").
 */
export const ActivityView = lazyView('the activity timeline', () => import('./activity-view.tsx').then((module) => module.ActivityView));
