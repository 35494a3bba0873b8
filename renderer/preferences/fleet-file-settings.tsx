import { type FleetFileConflict, fleetFileName } from '../../shared/fleet-file.ts';
import { useFleetFiles } from '../window/use-fleet-files.ts';
import { plural } from '../../shared/counts.ts';
import { useApi } from '../window/app-context.tsx';
import { useBusyAction } from '../window/busy-action.ts';

/**
 * The Preferences section for the fleet files followed here: each with its panels, when it was read,
 * its problem (damaged, a newer format, gone: never written over) and the fields in conflict; Open
 * fleet file… (main's open dialog) and Stop following. Saved at once, not with the form.
 */
export function FleetFileSettings() {
  const api = useApi();
  const files = useFleetFiles();
  const { busy, error, run } = useBusyAction();

  const open = () =>
    run(async () => {
      // The list follows from main's fleetFilesChanged.
      await api.openFleetFile();
    });
  const close = (id: string) =>
    run(async () => {
      await api.closeFleetFile(id);
    });
  // The file's list follows from main's fleetFilesChanged after each.
  const settle = (id: string, { address, field }: FleetFileConflict, keep: 'here' | 'file') =>
    run(async () => {
      await api.resolveFleetConflict(id, { address, field, keep });
    });
  const trust = (id: string, address: string) =>
    run(async () => {
      await api.trustFleetFilePin(id, address);
    });

  return (
    <section className="preferences-section" aria-labelledby="fleet-files-title">
      <h3 id="fleet-files-title">Fleet files</h3>
      <p className="muted">
        A team's panel list in a file it keeps (a git working tree, a synced folder): where each panel is and what the team calls it, never
        a sign-in. Changes there appear here within seconds; a change here to a shared panel is written back.
      </p>
      {files.length > 0 && (
        <ul className="fleet-files">
          {files.map((file) => (
            <li key={file.id} className="fleet-file">
              <div>
                <strong>{fleetFileName(file.path)}</strong> <span className="muted">{plural(file.panels, 'panel')}</span>
                {file.readOnly && <span className="status-badge">Read-only</span>}
              </div>
              <div className="muted fleet-file-path">{file.path}</div>
              {file.problem && (
                <p className="field-error" role="alert">
                  {file.problem}
                </p>
              )}
              {file.removed.length > 0 && <p className="muted">Removed from the file by someone, and here: {file.removed.join(', ')}.</p>}
              {file.trust.map((one) => (
                <div key={`trust ${one.address}`} className="notice notice-warning fleet-file-question">
                  <p>
                    {one.panelName}: the file pins {one.fileSha256 === null ? 'no certificate' : <code>{one.fileSha256}</code>}, not the one
                    trusted here. Its token keeps going only to the one trusted here until you compare the two and trust the file's.
                  </p>
                  <button type="button" disabled={busy} onClick={() => void trust(file.id, one.address)}>
                    {one.fileSha256 === null ? 'Stop pinning it, as the file says' : "Trust the file's certificate"}
                  </button>
                </div>
              ))}
              {file.conflicts.map((conflict) => (
                <div key={`${conflict.address} ${conflict.field}`} className="notice notice-warning fleet-file-question">
                  <p>
                    {conflict.panelName}: its {conflict.field} was changed both here and in the file. Here: <code>{conflict.here}</code>. In
                    the file: <code>{conflict.there}</code>. Nothing of it is applied until you choose.
                  </p>
                  <span className="fleet-file-choices">
                    <button type="button" disabled={busy} onClick={() => void settle(file.id, conflict, 'here')}>
                      Keep mine (write it to the file)
                    </button>
                    <button type="button" disabled={busy} onClick={() => void settle(file.id, conflict, 'file')}>
                      Take the file's
                    </button>
                  </span>
                </div>
              ))}
              <button type="button" disabled={busy} onClick={() => void close(file.id)}>
                Stop following
              </button>
            </li>
          ))}
        </ul>
      )}
      <button type="button" disabled={busy} onClick={() => void open()}>
        Open fleet file…
      </button>
      {error && (
        <div className="notice notice-error" role="alert">
          <p>{error.message}</p>
        </div>
      )}
    </section>
  );
}
