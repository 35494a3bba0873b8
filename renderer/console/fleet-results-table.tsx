import { useMemo, useState } from 'react';
import type { PanelOperationResult } from '../../shared/operations-console.ts';
import { usePanels, useWindowContext } from '../window/app-context.tsx';
import { COLUMN_NAMES, type ResultColumn, type ResultSort, resultRows, resultsCsv, sortRows } from './fleet-results.ts';
import { copyText } from '../ui/copy-text.ts';
import { failureInfo } from '../window/failure-info.ts';

const COLUMNS: readonly ResultColumn[] = ['panel', 'status', 'ms', 'value'];

/** The read across panels, one row per panel: sortable by each column, copied as CSV. */
export function FleetResults({ results, field }: { results: readonly PanelOperationResult[]; field: string | null }) {
  const { byId } = usePanels();
  const [sort, setSort] = useState<ResultSort>({ column: 'panel', descending: false });
  const [note, setNote] = useState('');
  const rows = useMemo(() => sortRows(resultRows(results, byId, field), sort), [results, byId, field, sort]);
  const failed = rows.filter((row) => row.outcome !== 'done').length;
  const { api } = useWindowContext();
  const saveCsv = async () => {
    try {
      const name = `paneldeck-results-${new Date().toISOString().slice(0, 10)}.csv`;
      const { path } = await api.saveTextFile({ name, text: resultsCsv(rows, field) });
      setNote(path === null ? 'Not saved.' : `Saved ${rows.length} rows as CSV to ${path}, in the order shown.`);
    } catch (caught) {
      setNote(failureInfo(caught).message);
    }
  };
  const copyCsv = async () => {
    const copied = await copyText(resultsCsv(rows, field));
    setNote(copied ? `Copied ${rows.length} rows as CSV, in the order shown.` : 'Could not copy: the clipboard is not available.');
  };
  return (
    <section className="fleet-console-results" aria-labelledby="fleet-results-title">
      <div className="section-bar">
        <h2 id="fleet-results-title" className="console-subtitle">
          Results
        </h2>
        <span className="muted">
          {rows.length} panel{rows.length === 1 ? '' : 's'}
          {failed > 0 ? `, ${failed} without a value` : ''}
        </span>
        <button type="button" className="button-small" onClick={() => void saveCsv()}>
          Save as CSV…
        </button>
        <button type="button" className="button-small" onClick={() => void copyCsv()}>
          Copy as CSV
        </button>
      </div>
      <p className="muted" role="status">
        {note}
      </p>
      <div className="fleet-console-table-wrap">
        <table className="fleet-console-table">
          <thead>
            <tr>
              {COLUMNS.map((column) => (
                <th key={column} scope="col" aria-sort={sort.column === column ? (sort.descending ? 'descending' : 'ascending') : 'none'}>
                  <button
                    type="button"
                    className="button-link"
                    onClick={() => setSort({ column, descending: sort.column === column ? !sort.descending : false })}
                  >
                    {column === 'value' && field ? `${COLUMN_NAMES.value}: ${field}` : COLUMN_NAMES[column]}
                    {sort.column === column ? (sort.descending ? ' ▼' : ' ▲') : ''}
                  </button>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.panelId} className={`outcome-${row.outcome}`}>
                <th scope="row" title={row.panelAddress}>
                  {row.panelName}
                </th>
                <td>{row.status ?? (row.outcome === 'done' ? '' : row.outcome)}</td>
                <td>{row.ms === null ? '' : Math.round(row.ms).toLocaleString('en')}</td>
                <td className={row.outcome === 'failed' ? 'fleet-console-value field-error' : 'fleet-console-value'} title={row.valueText}>
                  {row.valueText}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
