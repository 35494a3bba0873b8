/** The sign-in feature's React parts (views and hooks) that the rest of the window uses; its other files are its own. */
export { CertificateDetails, CertificateNotice, isCertificateProblem } from './certificate-notice.tsx';
export { FleetLoginDialog } from './fleet-login-dialog.tsx';
export { LoginForm } from './login-form.tsx';
export { PanelAccounts } from './panel-accounts.tsx';
