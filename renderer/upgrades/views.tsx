import { lazyView } from '../ui/lazy-view.tsx';

/**
 * The upgrade run's dialog, for the window's dialogs. Its code loads when first opened
 * (docs/architecture.md, "What loads at start").
 */
export const UpgradeDialog = lazyView('the upgrade dialog', () => import('./upgrade-dialog.tsx').then((module) => module.UpgradeDialog), {
  loading: 'none',
});
