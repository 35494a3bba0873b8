import { fleetFileName } from '../../shared/fleet-file.ts';
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
                <p key={`trust ${one.address}`} className="notice notice-warning">
                  {one.panelName}: the file pins{' '}
                  {one.fileSha256 === null ? 'no certificate' : `the certificate ${one.fileSha256.slice(0, 23)}…`}, not the one trusted
                  here. Its token keeps going only to the one trusted here: compare and trust the other on its Session tab if the team
                  changed it.
                </p>
              ))}
              {file.conflicts.map((conflict) => (
                <p key={`${conflict.address} ${conflict.field}`} className="notice notice-warning">
                  {conflict.panelName}: its {conflict.field} is {conflict.here} here and {conflict.there} in the file. Set it here to the
                  value wanted: that is written back.
                </p>
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
