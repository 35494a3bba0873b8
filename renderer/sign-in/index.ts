/** What the sign-in feature offers the rest of the window, free of React (it runs under Node too); its other files are its own. */
export { fleetEmail, fleetLogInLabel } from './fleet-login.ts';
