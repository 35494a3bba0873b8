import { PanelError } from '../../../shared/contract/errors.ts';
import type { Generation } from '../../../shared/types.ts';
import { callPanel, findVersion, generationOfVersion, updateAvailableOf, versionOf } from './panel-calls.ts';
import { endpointInGeneration, requestSession, usesDefaultPaths, type PanelEndpoint, type RequestSettings } from './panel-endpoints.ts';
import { MissingRouteError } from './panel-responses.ts';

/**
 * Following a panel that Easypanel's upgrade moved to a newer generation (2.30 tRPC → 2.31 RPC,
 * 2.32 RPC → 2.33 public API) with the token it has, without a new log in. Only the token is sent,
 * and only to the panel's own version and session routes under its API; never the password.
 * Only upwards: an older version (a downgrade) is not followed. Paths the operator set are theirs:
 * a panel with them is never moved.
 */

/** The generations oldest first: an upgrade moves a panel up this list. */
const GENERATION_AGE: Readonly<Record<Generation, number>> = { trpc: 0, rpc: 1, public: 2 };

/** Whether `generation` is a newer generation than `than`. */
export function isNewerGeneration(generation: Generation, than: Generation): boolean {
  return GENERATION_AGE[generation] > GENERATION_AGE[than];
}

/** A session read in a newer generation than the panel's remembered one: the session, and the panel's endpoint there. */
export interface MovedSession {
  session: unknown;
  moved: PanelEndpoint;
}

/**
 * When `version` speaks a newer generation than the panel's (and its paths are the defaults),
 * reads the session there with the token: the session and that endpoint, or null when the panel
 * has not moved. The read's failure is thrown.
 */
async function readInNewerStyle(
  settings: RequestSettings,
  panel: PanelEndpoint,
  token: string,
  version: string,
  signal: AbortSignal | undefined,
): Promise<MovedSession | null> {
  const generation = generationOfVersion(version);
  if (generation === null || !isNewerGeneration(generation, panel.generation) || !usesDefaultPaths(panel)) return null;
  const moved = endpointInGeneration(panel, generation);
  return { session: await requestSession(settings, moved, token, signal), moved };
}

/**
 * The session read at the panel's remembered generation; when that has no session route (404,
 * 405) at the default paths, the generation is found again by the version (newest first,
 * `findVersion`) and, when it is newer, the session is read there with the same token. Returns
 * the session, with the new endpoint and the version when the panel moved. When it did not, the
 * first read's error is thrown, unless the panel rejected the token on the way (UNAUTHORIZED: the
 * token is the problem) or the read was cancelled. `findGeneration` false: no search, the first
 * read's error as it is (a search that found nothing a moment ago).
 */
export async function readSessionFollowingUpgrade(
  settings: RequestSettings,
  panel: PanelEndpoint,
  token: string,
  signal?: AbortSignal,
  findGeneration = true,
): Promise<{ session: unknown; moved: PanelEndpoint | null; version: string | null; updateAvailable: boolean | null }> {
  try {
    return { session: await requestSession(settings, panel, token, signal), moved: null, version: null, updateAvailable: null };
  } catch (error) {
    if (!(error instanceof MissingRouteError) || !findGeneration || !usesDefaultPaths(panel)) throw error;
    let found: MovedSession | null = null;
    let version: string | null = null;
    let updateAvailable: boolean | null = null;
    try {
      const named = await findVersion(settings, panel, token, signal);
      version = named?.version ?? null;
      updateAvailable = named?.updateAvailable ?? null;
      if (version !== null) found = await readInNewerStyle(settings, panel, token, version, signal);
    } catch (next) {
      if (next instanceof PanelError && (next.code === 'UNAUTHORIZED' || next.code === 'CANCELLED')) throw next;
    }
    if (found === null) throw error;
    return { ...found, version, updateAvailable };
  }
}

/** What a version read learnt: the version named (null: none), and the panel's endpoint in a newer generation it now speaks. */
export interface VersionRead {
  version: string | null;
  /** Whether the panel said a newer Easypanel is out (getUpdateStatus's `available`); null when it did not say. */
  updateAvailable: boolean | null;
  moved: PanelEndpoint | null;
}

/**
 * Reads the panel's version with its token, in its remembered generation. A panel that does not
 * answer one (404, 405, any error) has no version: never an error. When the version speaks a newer
 * generation and the session reads there with the same token, the panel has moved (`moved`).
 * Null when the read was cancelled: nothing was learnt.
 */
export async function readVersion(
  settings: RequestSettings,
  panel: PanelEndpoint,
  token: string,
  signal?: AbortSignal,
): Promise<VersionRead | null> {
  let version: string | null;
  let updateAvailable: boolean | null;
  try {
    // One read says both: the version and whether a newer one is out (no request more for updates).
    const answer = await callPanel(settings, panel, token, 'getVersion', undefined, { signal });
    version = versionOf(answer);
    updateAvailable = updateAvailableOf(answer);
  } catch (error) {
    if (signal?.aborted || (error instanceof PanelError && error.code === 'CANCELLED')) return null;
    return { version: null, updateAvailable: null, moved: null };
  }
  if (version === null) return { version, updateAvailable, moved: null };
  try {
    return { version, updateAvailable, moved: (await readInNewerStyle(settings, panel, token, version, signal))?.moved ?? null };
  } catch {
    // The remembered generation still works: the panel stays on it until its next version read.
    return signal?.aborted ? null : { version, updateAvailable, moved: null };
  }
}
