import type { SessionResult } from '../../../shared/types.ts';

/**
 * The last session read of each panel in this run, already redacted, so the window can show it at
 * once while a fresh read runs. Memory only: a session is the panel's data, not Paneldeck's. It
 * is forgotten whenever the panel's sign-in ends.
 */
export class SessionCache {
  readonly #sessions = new Map<string, SessionResult>();

  get(panelId: string): SessionResult | null {
    return this.#sessions.get(panelId) ?? null;
  }

  set(result: SessionResult): void {
    this.#sessions.set(result.panelId, result);
  }

  forget(panelId: string): void {
    this.#sessions.delete(panelId);
  }
}
