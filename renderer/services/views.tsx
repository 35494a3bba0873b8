/** The services feature's React parts (views and hooks) that the rest of the window uses; its other files are its own. */
export { FleetServicesView } from './all-services-view.tsx';
export { ServicesTab } from './services-tab.tsx';
