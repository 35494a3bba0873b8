/** The certificates feature's React parts that the rest of the window uses; its other files are its own. */
export { CertificatesView } from './certificates-view.tsx';
