import { createHash } from 'node:crypto';
import type { Panel } from '../../../shared/types.ts';

/**
 * One log in request at a time per panel. A double click sends one request: an attempt with the
 * same key joins the one under way. A different attempt waits for it, then runs. The key names the
 * panel as it is now (its sign-in generation and address), so an attempt made before a log out or
 * an address change is never reused. The key is hashed: it holds the password and the code (so a
 * retry with a new code is a new attempt).
 */
export class LogInQueue {
  readonly #inFlight = new Map<string, { key: string; result: Promise<Panel> }>();

  run(panelId: string, attempt: readonly (string | number | null)[], logIn: () => Promise<Panel>): Promise<Panel> {
    const key = createHash('sha256').update(attempt.join('\0')).digest('hex');
    const current = this.#inFlight.get(panelId);
    if (current?.key === key) return current.result;
    const previous = current?.result.catch(() => undefined);
    const result = (async () => {
      await previous;
      return logIn();
    })();
    const entry = { key, result };
    this.#inFlight.set(panelId, entry);
    const clear = () => {
      if (this.#inFlight.get(panelId) === entry) this.#inFlight.delete(panelId);
    };
    result.then(clear, clear);
    return result;
  }
}
