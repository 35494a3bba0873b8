import { useEffect, useState } from 'react';
import type { PanelBridge } from '../../shared/bridge.ts';
import { useBusyAction } from '../busy-action.ts';

/**
 * Main's word that a newer Paneldeck is downloaded. Paneldeck never restarts by itself: the
 * operator does, here, when it suits them; otherwise the update installs when they quit.
 */
export function UpdateNotice({ api }: { api: Pick<PanelBridge, 'onEvent' | 'installUpdate'> }) {
  const [version, setVersion] = useState<string | null>(null);
  const [dismissed, setDismissed] = useState(false);
  const [restarting, setRestarting] = useState(false);
  const { busy, error, run } = useBusyAction();
  useEffect(
    () =>
      api.onEvent((event) => {
        if (event.type === 'updateReady') setVersion(event.version);
      }),
    [api],
  );
  if (version === null || dismissed) return null;
  // Main quits a moment after answering: the notice stays, saying so, until the window closes.
  const restart = async () => setRestarting(await run(() => api.installUpdate()));
  return (
    <div className="notice notice-info update-notice" role="status">
      <p className="notice-title">Update ready: restart to install</p>
      <p className="notice-detail">Paneldeck {version} is downloaded. It also installs the next time you quit.</p>
      {error && <p className="field-error">{error.message}</p>}
      <div className="form-actions">
        <button type="button" className="button-primary" disabled={busy || restarting} onClick={() => void restart()}>
          {restarting ? 'Restarting…' : 'Restart now'}
        </button>
        <button type="button" disabled={busy || restarting} onClick={() => setDismissed(true)}>
          Later
        </button>
      </div>
    </div>
  );
}
