import { setTimeout as sleep } from 'node:timers/promises';
import { PanelError } from '../../../shared/contract/errors.ts';
import { findVersion } from '../easypanel/panel-calls.ts';
import type { PanelEndpoint, RequestSettings } from '../easypanel/panel-endpoints.ts';

/**
 * Waiting for a panel to come back after its update: Easypanel restarts, and for a while its
 * address refuses connections or its proxy answers 502/503. The panel is looked at with its token
 * (the version read, in every generation, newest first: the update may have moved it to a newer
 * one) every `pollMs` until it names a version again.
 */

/** How the wait ended: back on a version, not back by the deadline, the token refused, or the run cancelled. */
export type PanelReturn =
  | { kind: 'back'; version: string; restarted: boolean }
  | { kind: 'not-back' }
  | { kind: 'refused'; message: string }
  | { kind: 'cancelled' };

export interface ReturnWait {
  request: RequestSettings;
  now(): number;
  pollMs: number;
  /** When the panel must be back by (epoch ms). */
  deadline: number;
  signal: AbortSignal;
}

/**
 * Looks at the panel until it is back. Back means: it names a version other than `before`, or
 * names one again after it was seen away (then the same version: the update did not take). Seen
 * answering on `before` without having been away, it has not restarted yet: the wait goes on.
 */
export async function waitForReturn(
  { request, now, pollMs, deadline, signal }: ReturnWait,
  panel: PanelEndpoint,
  token: string,
  before: string | null,
): Promise<PanelReturn> {
  let away = false;
  for (;;) {
    if (signal.aborted) return { kind: 'cancelled' };
    if (now() >= deadline) return { kind: 'not-back' };
    let found: { version: string } | null;
    try {
      found = await findVersion(request, panel, token, signal);
    } catch (error) {
      if (signal.aborted) return { kind: 'cancelled' };
      if (error instanceof PanelError && error.code === 'UNAUTHORIZED') return { kind: 'refused', message: error.message };
      found = null;
    }
    if (found === null) away = true;
    else if (found.version !== before || away) return { kind: 'back', version: found.version, restarted: away };
    try {
      await sleep(Math.max(0, Math.min(pollMs, deadline - now())), undefined, { signal });
    } catch {
      return { kind: 'cancelled' };
    }
  }
}
