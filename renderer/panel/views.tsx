/** The panel feature's React parts (views and hooks) that the rest of the window uses; its other files are its own. */
export { AddPanelDialog } from './add-panel-dialog.tsx';
export { PanelView } from './panel-view.tsx';
