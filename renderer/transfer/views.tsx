/** The transfer feature's React parts (views and hooks) that the rest of the window uses; its other files are its own. */
export { ImportDialog } from './import-dialog.tsx';
