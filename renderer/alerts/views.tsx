/** The alerts feature's React parts (views and hooks) that the rest of the window uses; its other files are its own. */
export { AlertsView } from './alerts-view.tsx';
export { StartSummaryNotice } from './start-summary.tsx';
