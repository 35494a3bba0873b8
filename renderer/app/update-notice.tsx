import { useState } from 'react';
import { useApi, useStatus, useWindowContext } from '../window/app-context.tsx';
import { useBusyAction } from '../window/busy-action.ts';

/**
 * Main's word that a newer Paneldeck is downloaded (kept by the window store, across a reload).
 * Paneldeck never restarts by itself: the operator does, here, when it suits them; otherwise the
 * update installs when they quit.
 */
export function UpdateNotice() {
  const api = useApi();
  const { statusStore } = useWindowContext();
  const { update } = useStatus();
  const [restarting, setRestarting] = useState(false);
  const { busy, error, run } = useBusyAction();
  if (update === null || update.dismissed) return null;
  // Main quits a moment after answering: the notice stays, saying so, until the window closes.
  const restart = async () => setRestarting(await run(() => api.installUpdate()));
  return (
    <div className="notice notice-info update-notice" role="status">
      <p className="notice-title">Update ready: restart to install</p>
      <p className="notice-detail">Paneldeck {update.version} is downloaded. It also installs the next time you quit.</p>
      {error && <p className="field-error">{error.message}</p>}
      <div className="form-actions">
        <button type="button" className="button-primary" disabled={busy || restarting} onClick={() => void restart()}>
          {restarting ? 'Restarting…' : 'Restart now'}
        </button>
        <button type="button" disabled={busy || restarting} onClick={() => statusStore.dismissUpdate()}>
          Later
        </button>
      </div>
    </div>
  );
}
