/** The activity feature's parts free of React that the rest of the window uses; its other files are its own. */
export { whenText } from './when-text.ts';
