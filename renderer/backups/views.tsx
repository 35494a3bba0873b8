import { lazyView } from '../ui/lazy-view.tsx';

/**
 * The backups feature's React parts that the rest of the window uses; its other files are its own.
 * Loaded when first opened (docs/architecture.md, "What loads at start").
 */
export const BackupsView = lazyView('the backups view', () => import('./backups-view.tsx').then((module) => module.BackupsView));
