/** What the panel-list feature offers the rest of the window, free of React (it runs under Node too); its other files are its own. */
export { fleetView, padNumbers, type SearchCache } from './fleet-view.ts';
export { fold, matchesWords, searchQuery } from './panel-search.ts';
