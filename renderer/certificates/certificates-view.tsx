import { useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { DEFAULT_SETTINGS } from '../../shared/settings.ts';
import { usePanels, useStatus, useWindowContext } from '../window/app-context.tsx';
import { useKeptRead } from '../ui/use-kept-read.ts';
import { useWindowedRows, type WindowedRow } from '../ui/windowed-rows.ts';
import { ReadStates } from '../ui/read-states.tsx';
import { SearchField } from '../ui/search-field.tsx';
import { type CertificateListRow, certificateRows, daysLeftText, filterCertificates } from './certificate-rows.ts';

const dateText = (iso: string) =>
  new Date(Date.parse(iso)).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });

/**
 * The certificate of every website the fleet serves (each app service's domains), on one page:
 * problems first, then the fewest days left, those ending within the Preferences' alert days marked. Main reads them by
 * a TLS handshake with each domain and keeps the read a day; Refresh reads them now.
 */
export function CertificatesView() {
  const { api, locationStore } = useWindowContext();
  const { panels } = usePanels();
  const alertDays = useStatus().status?.settings.certificateAlertDays ?? DEFAULT_SETTINGS.certificateAlertDays;
  const kept = useKeptRead((refresh) => api.listCertificates(refresh ? { refresh: true } : undefined));
  const loaded = { rows: kept.value, error: kept.error, reading: kept.reading };
  const [query, setQuery] = useState('');
  const search = useRef<HTMLInputElement>(null);

  useEffect(() => search.current?.focus(), []);

  const panelNames = useMemo(() => new Map((panels ?? []).map((panel) => [panel.id, panel.name])), [panels]);
  const all = useMemo(
    () => (loaded.rows ? certificateRows(loaded.rows, panelNames, alertDays) : null),
    [loaded.rows, panelNames, alertDays],
  );
  const shownQuery = useDeferredValue(query);
  const shown = useMemo(() => (all ? filterCertificates(all, shownQuery) : []), [all, shownQuery]);
  const soon = all?.filter((row) => row.soon).length ?? 0;
  const problems = all?.filter((row) => row.problem !== null).length ?? 0;

  return (
    <section className="activity-view certificates-view" aria-labelledby="certificates-title">
      <header className="activity-header">
        <h1 id="certificates-title">Certificates</h1>
        <button type="button" onClick={() => locationStore.show('panels')}>
          Back to the panel
        </button>
      </header>
      <p className="muted">
        Each app domain's certificate as a browser gets it: a TLS handshake alone, nothing of the panel's. Read daily or on Refresh; those
        ending within {alertDays} days are marked and alerted.
      </p>
      <div className="activity-filters">
        <SearchField
          ref={search}
          label="Search the certificates"
          placeholder="Search panel, service, host"
          value={query}
          onSearch={setQuery}
        />
        <button type="button" disabled={loaded.reading} onClick={kept.refresh}>
          {loaded.reading && all ? 'Reading…' : 'Refresh'}
        </button>
        {all && (
          <span className="muted" role="status">
            {shown.length === all.length ? `${all.length} certificates` : `${shown.length} of ${all.length} certificates`}
            {soon > 0 && `, ${soon} ending within ${alertDays} days`}
            {problems > 0 && `, ${problems} with a problem`}
          </span>
        )}
      </div>
      {loaded.error && all && (
        <div className="notice notice-error" role="alert">
          <p>{loaded.error.message}</p>
        </div>
      )}
      <ReadStates
        error={all ? null : loaded.error}
        onRetry={kept.retry}
        reading={all === null && !loaded.error ? 'Reading the certificates: a TLS handshake with each domain…' : null}
        empty={
          all === null || shown.length > 0
            ? null
            : all.length === 0
              ? 'No domain yet: no signed-in panel has an app service with a domain.'
              : 'No certificate matches. Esc in the search box clears it.'
        }
      >
        <CertificateTable rows={shown} />
      </ReadStates>
    </section>
  );
}

/** A certificate's row, or the line of its problem's words under it: the table's lines in order. */
type CertificateTableLine = { kind: 'row' | 'problem'; key: string; row: CertificateListRow };

/** A line's height before it is measured: a problem's words may wrap. */
const LINE_HEIGHTS: Readonly<Record<CertificateTableLine['kind'], number>> = { row: 29, problem: 24 };

/** Every certificate in one table, of which only the lines in view are in the page (ten thousand cost what twenty do). */
function CertificateTable({ rows }: { rows: readonly CertificateListRow[] }) {
  const scroller = useRef<HTMLDivElement>(null);
  const lines = useMemo(
    () =>
      rows.flatMap((row): CertificateTableLine[] =>
        row.problem === null
          ? [{ kind: 'row', key: row.key, row }]
          : [
              { kind: 'row', key: row.key, row },
              { kind: 'problem', key: `${row.key} problem`, row },
            ],
      ),
    [rows],
  );
  const { shown, margins, placed } = useWindowedRows(scroller, lines.length, (index) => LINE_HEIGHTS[lines[index]!.kind]);
  return (
    <div className="certificates-scroller" ref={scroller}>
      <table className="service-table certificates-table" aria-rowcount={lines.length + 1} style={margins}>
        <thead>
          <tr>
            <th scope="col" className="certificate-panel">
              Panel
            </th>
            <th scope="col" className="certificate-service">
              Service
            </th>
            <th scope="col" className="certificate-host">
              Host
            </th>
            <th scope="col" className="certificate-until">
              Valid until
            </th>
            <th scope="col" className="certificate-days">
              Days left
            </th>
          </tr>
        </thead>
        <tbody>
          {shown.map((virtual) => {
            const line = lines[virtual.index]!;
            return line.kind === 'row' ? (
              <CertificateLine key={line.key} row={line.row} placed={placed(virtual.index)} />
            ) : (
              <tr key={line.key} className="certificate-problem-line" {...placed(virtual.index)}>
                <td colSpan={5} role="note">
                  {line.row.problem}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function CertificateLine({ row, placed }: { row: CertificateListRow; placed: WindowedRow }) {
  const marked = row.problem !== null ? 'certificate-problem' : row.soon ? 'certificate-soon' : '';
  return (
    <tr className={`certificate-row ${marked}`} {...placed}>
      <td className="certificate-panel" title={row.panelName}>
        {row.panelName}
      </td>
      <td className="certificate-service" title={`${row.projectName}/${row.serviceName}`}>
        {row.serviceName === '' ? <span className="muted">all services</span> : `${row.projectName}/${row.serviceName}`}
      </td>
      <td className="certificate-host" title={row.host}>
        {row.host === '' ? <span className="muted">—</span> : row.host}
      </td>
      <td className="certificate-until">
        {row.validTo ? (
          <time dateTime={row.validTo} title={new Date(Date.parse(row.validTo)).toString()}>
            {dateText(row.validTo)}
          </time>
        ) : (
          '—'
        )}
      </td>
      <td className="certificate-days">
        {daysLeftText(row.daysLeft)}
        {row.soon && <span className="certificate-mark">soon</span>}
      </td>
    </tr>
  );
}
