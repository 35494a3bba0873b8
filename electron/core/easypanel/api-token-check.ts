import { PanelError } from '../../../shared/contract/errors.ts';
import type { Generation } from '../../../shared/types.ts';
import { callPanel, findVersion } from './panel-calls.ts';
import { requestSession, type PanelEndpoint, type RequestSettings } from './panel-endpoints.ts';

/**
 * Long-lived API tokens (made in Easypanel under Settings, Users): whether a panel accepts one.
 * Whether Easypanel's `getSession` takes an API token is not known (docs/easypanel-api.md), so
 * the session read is tried first and the version read (which takes any valid token) second.
 */

/** How the panel accepted an API token: by its session read, or (that route refusing it) by its version read, in `generation`. */
export type ApiTokenAcceptance = { by: 'session' } | { by: 'version'; generation: Generation; version: string };

/** The message of a refused API token, for the log in form. */
export const API_TOKEN_REFUSED_MESSAGE =
  'The panel refused this API token: it is not valid there, or it was revoked or replaced by a newer one. ' +
  'Copy the token again from Easypanel (Settings, Users, API token) and paste the whole of it.';

/**
 * Asks the panel whether it takes `token`: the session read, then the version read in the panel's
 * generation and then the other generations'. Throws UNAUTHORIZED (`API_TOKEN_REFUSED_MESSAGE`) when
 * the panel refused it; a failure that says nothing of the token (network, certificate, timeout)
 * is thrown as it is.
 */
export async function checkApiToken(settings: RequestSettings, panel: PanelEndpoint, token: string): Promise<ApiTokenAcceptance> {
  let sessionFailure: PanelError;
  try {
    await requestSession(settings, panel, token);
    return { by: 'session' };
  } catch (error) {
    // A 401 may be the session route refusing API tokens, a BAD_RESPONSE another generation's panel: the version read tells.
    if (!(error instanceof PanelError) || (error.code !== 'UNAUTHORIZED' && error.code !== 'BAD_RESPONSE')) throw error;
    sessionFailure = error;
  }
  let found: Awaited<ReturnType<typeof findVersion>>;
  try {
    found = await findVersion(settings, panel, token);
  } catch (error) {
    if (error instanceof PanelError && error.code === 'UNAUTHORIZED') throw refused();
    throw error;
  }
  if (found) return { by: 'version', ...found };
  // No generation answered a version: the session read's answer is all there is.
  if (sessionFailure.code === 'UNAUTHORIZED') throw refused();
  throw sessionFailure;
}

/** Why a panel signed in with an API token was signed out: the panel no longer takes the token. */
export const API_TOKEN_REJECTED_MESSAGE =
  'The panel no longer accepts the saved API token: it was revoked or replaced in Easypanel. ' +
  'Make a new one there (Settings, Users, API token) and paste it to sign in again.';

function refused(): PanelError {
  return new PanelError('UNAUTHORIZED', API_TOKEN_REFUSED_MESSAGE);
}

/**
 * The session read of a panel signed in with an API token: its session when the session route
 * takes the token, else the version read's answer, which is all such a panel says with it (a 401
 * from the session route alone must not sign out a token the panel still accepts). UNAUTHORIZED
 * only when the version read refuses the token too.
 */
export async function readApiTokenSession(
  settings: RequestSettings,
  panel: PanelEndpoint,
  token: string,
  signal?: AbortSignal,
): Promise<unknown> {
  try {
    return await requestSession(settings, panel, token, signal);
  } catch (error) {
    if (!(error instanceof PanelError) || error.code !== 'UNAUTHORIZED') throw error;
  }
  try {
    return await callPanel(settings, panel, token, 'getVersion', undefined, { signal });
  } catch (error) {
    // No version route (BAD_RESPONSE) leaves the session route's 401 as the panel's word.
    if (error instanceof PanelError && (error.code === 'UNAUTHORIZED' || error.code === 'BAD_RESPONSE'))
      throw new PanelError('UNAUTHORIZED', API_TOKEN_REJECTED_MESSAGE);
    throw error;
  }
}
