import type { Envelope } from './contract.ts';
import { INTERNAL_MESSAGE, PanelError } from './errors.ts';

/**
 * Runs one call and wraps its outcome for the trip across IPC: errors thrown through
 * `ipcMain.handle` arrive mangled, an envelope arrives whole. An error that is not a
 * `PanelError` is a bug; its message may hold anything, so only a generic one is sent.
 */
export async function settle<T>(call: () => Promise<T>): Promise<Envelope<T>> {
  try {
    return { ok: true, value: await call() };
  } catch (error) {
    if (error instanceof PanelError) return { ok: false, error: error.toInfo() };
    return { ok: false, error: { code: 'INTERNAL', message: INTERNAL_MESSAGE } };
  }
}
