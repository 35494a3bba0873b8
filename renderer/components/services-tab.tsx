import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useDeferredValue, useMemo, useRef, useState } from 'react';
import { formatCount } from '../json-rows.ts';
import type { ServiceSummary } from '../../shared/services.ts';
import type { Panel } from '../../shared/types.ts';
import { useWindowContext } from '../app-context.tsx';
import { filterServices, replicasText, STATE_WORDS, sortServices, stateCounts } from '../service-rows.ts';
import { ReadBar, usePanelRead } from './read-bar.tsx';

/** Each row's height in pixels: fixed, so the table needs no measuring and holds only the rows in view. */
const ROW_HEIGHT = 34;

/**
 * The panel's projects and services with their state (a colour and a shape, and the word),
 * replicas and type; a search box narrows them. Read in the background; a panel of thousands of
 * services keeps only the rows in view in the page.
 */
export function ServicesTab({ panel }: { panel: Panel }) {
  const { reads } = useWindowContext();
  const state = usePanelRead(reads.services, panel.id);
  const list = state.value;
  const [query, setQuery] = useState('');
  // Typing stays quick with thousands of rows: the table follows a moment behind.
  const shownQuery = useDeferredValue(query);
  const sorted = useMemo(() => sortServices(list?.services ?? []), [list]);
  const rows = useMemo(() => filterServices(sorted, shownQuery), [sorted, shownQuery]);
  const counts = useMemo(() => stateCounts(sorted), [sorted]);
  return (
    <section className="services-tab" aria-labelledby="services-title" aria-busy={state.loading}>
      <ReadBar
        id="services-title"
        title="Services"
        state={state}
        what="the services"
        onRefresh={() => void reads.services.load(panel.id)}
      />
      {list && (
        <>
          <div className="services-tools">
            <input
              type="search"
              className="services-search"
              aria-label="Search services by project, name, type or state"
              placeholder="Search services"
              value={query}
              onChange={(event) => setQuery(event.target.value)}
            />
            <p className="muted services-counts">
              {`${formatCount(list.projects.length)} project${list.projects.length === 1 ? '' : 's'}, ${formatCount(sorted.length)} service${sorted.length === 1 ? '' : 's'}`}
              {counts && `: ${counts}`}
            </p>
          </div>
          {list.truncated && (
            <p className="notice notice-warning">
              The panel lists more services than Paneldeck shows; the first {formatCount(sorted.length)} are here.
            </p>
          )}
          {list.taskStatsProblem !== null && (
            <div className="notice notice-warning">
              <p className="notice-title">Which services run could not be read, so their state is unknown</p>
              <p>{list.taskStatsProblem}</p>
            </div>
          )}
          {sorted.length === 0 ? (
            <p className="muted">This panel has no services yet.</p>
          ) : rows.length === 0 ? (
            <p className="muted">No service matches “{shownQuery}”.</p>
          ) : (
            <ServiceTable rows={rows} />
          )}
        </>
      )}
    </section>
  );
}

/** The table, only the rows in view in the page: margins above and below stand for the others. */
function ServiceTable({ rows }: { rows: readonly ServiceSummary[] }) {
  const scroller = useRef<HTMLDivElement>(null);
  const getScrollElement = useCallback(() => scroller.current, []);
  const estimateSize = useCallback(() => ROW_HEIGHT, []);
  const getItemKey = useCallback((index: number) => `${rows[index]!.projectName}/${rows[index]!.name}`, [rows]);
  // The heading row sits above the rows inside the scroller.
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement,
    estimateSize,
    getItemKey,
    overscan: 8,
    scrollMargin: ROW_HEIGHT,
  });
  const shown = virtualizer.getVirtualItems();
  const above = (shown[0]?.start ?? ROW_HEIGHT) - ROW_HEIGHT;
  const below = virtualizer.getTotalSize() - ((shown.at(-1)?.end ?? ROW_HEIGHT) - ROW_HEIGHT);
  return (
    // The table scrolls itself, its heading row staying at the top.
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take the keyboard to be scrolled with it (axe: scrollable-region-focusable)
    <div ref={scroller} className="service-scroller" tabIndex={0}>
      {/* The rows out of view are margins: the table holds only those in view, at their place. */}
      <table
        className="service-table"
        aria-label="Services"
        aria-rowcount={rows.length + 1}
        style={{ marginTop: above, marginBottom: below }}
      >
        <thead>
          <tr aria-rowindex={1}>
            <th scope="col" className="service-state">
              State
            </th>
            <th scope="col">Project</th>
            <th scope="col">Service</th>
            <th scope="col" className="service-type">
              Type
            </th>
            <th scope="col" className="service-replicas">
              Replicas
            </th>
          </tr>
        </thead>
        <tbody>
          {shown.map((virtual) => {
            const service = rows[virtual.index]!;
            return (
              <tr key={virtual.key} className={`state-${service.state}`} aria-rowindex={virtual.index + 2}>
                <td className="service-state">
                  <span className={`state-mark state-${service.state}`} aria-hidden="true" />
                  {STATE_WORDS[service.state]}
                </td>
                <td title={service.projectName}>{service.projectName}</td>
                <td className="service-name" title={service.name}>
                  {service.name}
                </td>
                <td className="service-type">{service.type}</td>
                <td className="service-replicas">{replicasText(service)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
