import { lazyView } from '../ui/lazy-view.tsx';

/**
 * The panel-list feature's React parts (views and hooks) that the rest of the window uses; its
 * other files are its own. The list is the first screen; the view of several panels marked
 * together loads when first shown (docs/architecture.md, "What loads at start").
 */
export { availableCommands, importedText, rowMenuItems } from './selection-commands.ts';
export { PanelListPane } from './panel-list-pane.tsx';
export { useSelection } from './use-selection.ts';
export { useMultiSelect } from './use-multi-select.ts';
export const BulkView = lazyView('the view of the marked panels', () => import('./bulk-view.tsx').then((module) => module.BulkView));
