import { PanelError } from '../../../shared/contract/errors.ts';
import { refusedToken } from '../easypanel/token-call.ts';
import type { PanelRecord } from '../storage/panel-registry.ts';
import type { FolderAccess } from '../context/core-context.ts';
import type { DataFolder } from '../storage/data-folder.ts';
import { find, notSignedIn, type SessionReader } from './session-reader.ts';

/** The panel, its token now, and the state they were read from: what a call made with the token needs. */
export interface SignedIn {
  record: PanelRecord;
  token: string;
  state: DataFolder;
}

/** What a call made with a panel's token needs: the data folder, and the session reader to hear first of its failure. */
export interface TokenCalls extends FolderAccess {
  reader: Pick<SessionReader, 'failedWithToken' | 'whileSignedIn' | 'learntVersion'>;
}

/** The panel and its token now, or NOT_SIGNED_IN (saying why the sign-in ended, when known). The token stays in main. */
export function signedIn(state: DataFolder, panelId: string): SignedIn {
  const record = find(state, panelId);
  const token = state.vault.token(panelId, record.baseUrl);
  if (!token) throw notSignedIn(record);
  return { record, token, state };
}

/**
 * A check for right before a request made with `held` leaves (`beforeSend`): the panel still in the
 * list at the same address, signed in with the same token; otherwise NOT_SIGNED_IN and nothing is
 * sent. A log out, a removal or a new address that came while the call was under way stops it.
 */
export function stillHeld(held: SignedIn): () => void {
  return () => {
    const latest = held.state.registry.get(held.record.id);
    if (!latest || latest.baseUrl !== held.record.baseUrl || held.state.vault.token(latest.id, latest.baseUrl) !== held.token)
      throw new PanelError('NOT_SIGNED_IN', `Not sent: the sign-in of ${held.record.name} ended while this was under way.`);
  };
}

/**
 * What every call made with a panel's token does with its failure, whatever carried it (a read, a
 * write, the log socket): the session reader hears it first, so that a 401/403 ends the sign-in as
 * a session read's would (one signed-out state, the window told), and a refused certificate is
 * noted for trustCertificate. Then the failure goes on to the caller.
 */
export async function failedWithToken({ reader }: Pick<TokenCalls, 'reader'>, held: SignedIn, error: unknown): Promise<void> {
  // The token the panel refused, when it says (a write as another account): that sign-in ends, not the one held.
  if (error instanceof PanelError) await reader.failedWithToken(held.state, held.record, refusedToken(error) ?? held.token, error);
}

/**
 * Runs `use` with the panel's token (see `signedIn`), telling the session reader of its failure
 * (`failedWithToken`). `signal` is aborted by `outer` and when the sign-in ends (a log out, a
 * removal, a new address): a read given it stops before it reaches the panel, and the call says
 * NOT_SIGNED_IN. A write's own request takes `stillHeld` instead: once sent, it is not given up.
 */
export async function withToken<T>(
  calls: TokenCalls,
  panelId: string,
  use: (held: SignedIn, signal: AbortSignal) => Promise<T>,
  outer?: AbortSignal,
): Promise<T> {
  const held = signedIn(await calls.state(), panelId);
  const whileSignedIn = calls.reader.whileSignedIn(panelId, outer);
  try {
    return await use(held, whileSignedIn.signal);
  } catch (error) {
    if (whileSignedIn.signal.aborted && !outer?.aborted)
      throw new PanelError('NOT_SIGNED_IN', `The sign-in of ${held.record.name} ended while this was under way; nothing more was sent.`);
    await failedWithToken(calls, held, error);
    throw error;
  } finally {
    whileSignedIn.done();
  }
}
