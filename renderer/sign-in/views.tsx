import { lazyView } from '../ui/lazy-view.tsx';

/**
 * The sign-in feature's React parts (views and hooks) that the rest of the window uses; its other
 * files are its own. The log in form is the first screen of a signed-out panel; the fleet's log
 * in is a dialog whose code loads when first opened (docs/architecture.md, "What loads at start").
 */
export { CertificateDetails, CertificateNotice, isCertificateProblem } from './certificate-notice.tsx';
export { LoginForm } from './login-form.tsx';
export { PanelAccounts } from './panel-accounts.tsx';
export const FleetLoginDialog = lazyView(
  'the fleet log in dialog',
  () => import('./fleet-login-dialog.tsx').then((module) => module.FleetLoginDialog),
  { loading: 'none' },
);
