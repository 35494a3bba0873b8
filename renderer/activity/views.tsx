/** The activity feature's React parts (views and hooks) that the rest of the window uses; its other files are its own. */
export { ActivityView, whenText } from './activity-view.tsx';
