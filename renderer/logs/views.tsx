/** The logs feature's React parts (views and hooks) that the rest of the window uses; its other files are its own. */
export { LogLines } from './log-lines-view.tsx';
export { LogsView } from './logs-view.tsx';
export { ServicePicker, useRememberedService } from './service-picker.tsx';
