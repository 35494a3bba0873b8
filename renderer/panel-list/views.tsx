/** The panel-list feature's React parts (views and hooks) that the rest of the window uses; its other files are its own. */
export { BulkView } from './bulk-view.tsx';
export { availableCommands, importedText, rowMenuItems } from './selection-commands.ts';
export { PanelListPane } from './panel-list-pane.tsx';
export { useSelection } from './use-selection.ts';
export { useMultiSelect } from './use-multi-select.ts';
