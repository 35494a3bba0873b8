import { lazyView } from '../ui/lazy-view.tsx';

/**
 * The preferences feature's React parts (views and hooks) that the rest of the window uses; its
 * other files are its own. A dialog: its code loads when first opened, and nothing shows in the
 * window meanwhile (docs/architecture.md, "What loads at start").
 */
export const PreferencesDialog = lazyView(
  'the preferences',
  () => import('./preferences-dialog.tsx').then((module) => module.PreferencesDialog),
  { loading: 'none' },
);
