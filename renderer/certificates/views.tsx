import { lazyView } from '../ui/lazy-view.tsx';

/**
 * The certificates feature's React parts that the rest of the window uses; its other files are its
 * own. Loaded when first opened (docs/architecture.md, "What loads at start").
 */
export const CertificatesView = lazyView('the certificates view', () =>
  import('./certificates-view.tsx').then((module) => module.CertificatesView),
);
