/** What the services feature offers the rest of the window, free of React (it runs under Node too); its other files are its own. */
export { warmFleetRows } from './all-services-warmup.ts';
export { followServiceRuns } from './service-action-run.ts';
export { pickerSuggestions } from './service-rows.ts';
