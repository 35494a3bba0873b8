/** The backups feature's React parts that the rest of the window uses; its other files are its own. */
export { BackupsView } from './backups-view.tsx';
