import type { Panel } from '../../../shared/types.ts';
import type { Call } from './calls.ts';
import type { Run } from './harness.ts';
import { isStrong } from './keyring.ts';
import type { SessionResult } from '../../../shared/types.ts';
import type { PanelModel } from './model.ts';
import type { World } from './world.ts';

/** Where the core keeps each signed-in panel's token, held to the backend and the setting; whose session it shows. */

/** Where a signed-in panel's token is kept must fit the backend and the setting. */
export function checkStorage(
  run: Run,
  entry: Panel,
  { weak, pending, freshLogIn }: { weak: boolean; pending: boolean; freshLogIn: boolean },
  panel: PanelModel | undefined,
): void {
  const label = panel?.label ?? entry.id;
  const backend = run.backend;
  const storage = entry.tokenStorage;
  if (backend === 'unavailable' && storage !== 'memory') run.fail(`[storage] ${label} is ${storage} with no encryption available`);
  if (!isStrong(backend) && storage === 'keyring') run.fail(`[storage] ${label} claims a keyring under ${backend}`);
  if (storage === 'weak' && !weak && !pending) run.fail(`[invariant 3] ${label} is stored weakly though weak protection is off`);
  if (!isStrong(backend)) return;
  // Under a keyring, a fresh log in is encrypted. A token restored from a copy under the
  // built-in key stays 'weak' until it can be re-encrypted (a write at start failed), and
  // 'memory' once "weak off" deleted that copy: protection, not sign-in, so only that much is held.
  const restoredWeakly = storage === 'weak' && panel?.copy?.backend === 'basic_text';
  if ((freshLogIn && storage !== 'keyring') || (storage === 'weak' && !restoredWeakly)) {
    run.fail(`[liveness] ${label} is ${storage} though a keyring is there`);
  }
}

/** Alone and with the disk fine, "weak on" saves every token kept in memory under basic_text. */
export function checkSequentialPolicy(run: Run, calls: readonly Call[], faultFired: boolean, listing: Panel[]): void {
  const [call] = calls;
  if (calls.length !== 1 || faultFired || call?.kind !== 'weak' || !call.on || run.backend !== 'basic_text') return;
  for (const entry of listing) {
    if (entry.signedIn && entry.tokenStorage !== 'weak') run.fail(`[liveness] after weak on, ${entry.name} is still ${entry.tokenStorage}`);
  }
}

/** A session shown for a panel is of the user of an address the panel had in this group (`calls`: the group's calls on it). */
export function checkSessionOwner(
  world: World,
  panel: PanelModel,
  calls: Call[],
  result: SessionResult,
  fail: (message: string) => never,
): void {
  const email = (result.session as { user?: { email?: unknown } } | null)?.user?.email;
  // Easypanel's session names the user by id.
  const userId = (result.session as { userId?: unknown } | null)?.userId;
  const addresses = [panel.target, ...calls.flatMap((other) => (other.kind === 'readdress' ? [other.target] : []))];
  const users = addresses.flatMap((target) => (target.kind === 'server' ? [world.servers[target.index]!.user] : []));
  if (result.panelId !== panel.id || !users.some((user) => user.email === email || user.id === userId))
    fail(`[invariant 2] a session of ${String(email ?? userId)} for ${result.panelId}`);
}
