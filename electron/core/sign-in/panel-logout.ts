import { PanelError, type ErrorInfo } from '../../../shared/contract/errors.ts';
import { callPanel, MissingRouteError } from '../easypanel/panel-calls.ts';
import type { RequestSettings } from '../easypanel/panel-endpoints.ts';
import type { PanelRecord } from '../storage/panel-registry.ts';
import type { WriteOutcome, WriteRecorder } from '../activity/activity-methods.ts';

/** A sign-in that has just ended here, whose session the panel is asked to end too. */
export interface EndedSignIn {
  record: PanelRecord;
  token: string;
  /** When the session ends by itself, as last read; null when not known. */
  endsAt: string | null;
  /** The account it was, when another account of the panel's (`PanelAccount`), not its own sign-in. */
  account?: string | null;
}

/** Panels asked at once when many are logged out together: a fleet's log out must not open hundreds of connections. */
const AT_ONCE = 8;

/**
 * Asks each panel to end the session of a sign-in Paneldeck has already ended here (the token is
 * forgotten first, so a log out never waits on a panel and a failure never brings it back). Each
 * is a write to the panel, in the activity log, sent even when the log cannot be written: ending
 * a session matters more than its record. Returns, for each panel that could not be asked or
 * refused, why, in words for the panel's settings.
 */
export async function endSessionsAtPanels(
  request: RequestSettings,
  ended: readonly EndedSignIn[],
  recordWrite: WriteRecorder,
): Promise<Map<string, ErrorInfo>> {
  const notes = new Map<string, ErrorInfo>();
  let next = 0;
  const worker = async () => {
    while (next < ended.length) {
      const one = ended[next++]!;
      try {
        await recordWrite(one.record, { action: 'logOut' }, () => callPanel(request, one.record, one.token, 'logOut'), {
          secrets: [one.token],
          unrecorded: 'send',
          ...(one.account === undefined ? {} : { account: one.account }),
          judge: logOutOutcome,
        });
      } catch (error) {
        // A 401: the session had ended at the panel already, which is what was asked. No log-out
        // route (a panel speaking only the specified API): there is nothing more Paneldeck can do.
        if ((error instanceof PanelError && error.code === 'UNAUTHORIZED') || error instanceof MissingRouteError) continue;
        notes.set(one.record.id, stillOpen(one, error));
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(AT_ONCE, ended.length) }, worker));
  return notes;
}

function stillOpen({ endsAt }: EndedSignIn, error: unknown): ErrorInfo {
  const why = error instanceof PanelError ? error.message : 'The panel could not be asked.';
  const when = endsAt ? `on ${new Date(endsAt).toUTCString()}` : 'when it expires';
  return {
    code: error instanceof PanelError ? error.code : 'NETWORK',
    message: `Signed out here; the panel could not end its session (${why.replace(/\.$/, '')}), so it ends by itself ${when}.`,
  };
}

/** A 401 is a session already ended, which is what was asked; no log-out route is a panel that cannot be asked. */
function logOutOutcome(error: unknown): WriteOutcome | null {
  if (error instanceof PanelError && error.code === 'UNAUTHORIZED')
    return { outcome: 'ok', message: 'The session had already ended at the panel.' };
  if (error instanceof MissingRouteError)
    return { outcome: 'failed', message: 'This panel has no route to end a session; it ends by itself when it expires.' };
  return null;
}
