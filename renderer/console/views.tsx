/** The console feature's React parts (views and hooks) that the rest of the window uses; its other files are its own. */
export { ConsoleStoreProvider } from './console-store-context.tsx';
export { ConsoleTab } from './console-tab.tsx';
export { FleetConsoleView } from './fleet-console-view.tsx';
