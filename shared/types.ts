import type { ErrorInfo } from './errors.ts';

/** Where the token of a signed-in panel lives: encrypted on disk, or in memory for this run. */
export type TokenStorage = 'encrypted' | 'memory';

/** The outcome of the last session read, kept on the panel. */
export type SessionCheck =
  | { at: string; ok: true }
  | { at: string; ok: false; error: ErrorInfo };

export interface Panel {
  id: string;
  name: string;
  /** The address as an operator reads it: Unicode host, port when not the default. */
  address: string;
  /** `https://<host[:port]>/api` (punycode host), or `http://` for a loopback host. */
  baseUrl: string;
  /** Path appended to `baseUrl` to log in, e.g. `/login`. */
  loginPath: string;
  /** Dot path of the token in the login response; `null` means "look in the usual places". */
  tokenField: string | null;
  createdAt: string;
  /** The email last used to log in (never the password). */
  account: string | null;
  signedIn: boolean;
  tokenStorage: TokenStorage | null;
  /** Why the panel is signed out when it did not choose to be (expired token, unreadable vault). */
  signedOutReason: ErrorInfo | null;
  lastCheck: SessionCheck | null;
}

export interface SessionResult {
  panelId: string;
  checkedAt: string;
  /** The JSON the panel returned for `getSession`, as it returned it. */
  session: unknown;
}

/** Replaces, in a session sent to the renderer, any value that holds the panel's token. */
export const HIDDEN_SECRET = '[hidden by Paneldeck: the panel sent the token back]';
