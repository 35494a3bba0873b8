/** The session feature's React parts (views and hooks) that the rest of the window uses; its other files are its own. */
export { type SessionState, SessionView } from './session-view.tsx';
