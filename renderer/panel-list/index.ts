/** What the panel-list feature offers the rest of the window, free of React (it runs under Node too); its other files are its own. */
export { NO_GROUP, panelListRows, padNumbers, type SearchCache } from './panel-list-rows.ts';
export { fold, matchesWords, searchQuery } from './panel-search.ts';
