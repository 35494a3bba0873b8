import { lazyView } from '../ui/lazy-view.tsx';

/**
 * The transfer feature's React parts (views and hooks) that the rest of the window uses; its other
 * files are its own. A dialog: its code loads when first opened (docs/architecture.md, "What loads at start").
 */
export const ImportDialog = lazyView('the import dialog', () => import('./import-dialog.tsx').then((module) => module.ImportDialog), {
  loading: 'none',
});
