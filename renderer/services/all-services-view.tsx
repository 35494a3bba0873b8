import { useCallback, useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { plural } from '../../shared/counts.ts';
import type { ServiceAction } from '../../shared/service-actions.ts';
import type { Panel, ServicesGrouping } from '../../shared/types.ts';
import { useFleetServices, usePanelListChoices, useNow, usePanels, useServiceActions, useWindowContext } from '../window/app-context.tsx';
import { useBusyAction } from '../window/busy-action.ts';
import { formatCount } from '../ui/json-rows.ts';
import { actionItems } from './all-services-actions.ts';
import {
  FLEET_ROWS,
  type FleetServiceRow,
  filterFleetServices,
  fleetServiceRows,
  groupFleetServices,
  readPanels,
  readProblems,
  unreadPanels,
  STATE_FILTER_NAMES,
  type StateFilter,
} from './all-services-rows.ts';
import { countStates as fleetStateCounts } from './service-rows.ts';
import { leftOutText, planEveryAction, planServiceAction } from './service-action-plan.ts';
import { NO_SERVICES, selectedServices } from './service-selection.ts';
import { FleetRunBar } from './action-run-bar.tsx';
import { cancelServiceRun, startServiceRun } from './service-action-run.ts';
import { FleetServicesTable } from './all-services-table.tsx';
import { ServiceRowMenu, useOpenServiceTab } from './service-row-menu.tsx';
import { SearchField } from '../ui/search-field.tsx';
import { ServiceActionBar } from './service-action-bar.tsx';

const GROUPINGS: readonly [ServicesGrouping, string][] = [
  ['panel', 'Panel'],
  ['group', 'Group'],
  ['project', 'Project'],
  ['state', 'State'],
];
const rowKey = (row: FleetServiceRow) => row.key;

const NAMES_SHOWN = 3;

/** "Hooli", "Hooli, Initech and 2 more": the panels that did not answer, named. */
function unansweredNames(panels: readonly Panel[]): string {
  const shown = panels.slice(0, NAMES_SHOWN).map((panel) => panel.name);
  const more = panels.length - shown.length;
  return more > 0 ? `${shown.join(', ')} and ${more} more` : shown.join(panels.length === 2 ? ' and ' : ', ');
}

/**
 * Every service of every signed-in panel as main last read them (each check reads them), in one
 * table: searched, filtered by state, grouped by panel, project or state (the grouping is kept with
 * the panel list's settings). Rows selected across panels take one action after one confirmation.
 */
export function FleetServicesView() {
  const context = useWindowContext();
  const { api, locationStore, panelListChoicesStore, serviceActionStore } = context;
  const { panels } = usePanels();
  const services = useFleetServices();
  const { panelListChoices } = usePanelListChoices();
  const { states: serviceActions, run } = useServiceActions();
  const grouping = panelListChoices.servicesGroupBy ?? 'panel';
  const now = useNow();
  const [query, setQuery] = useState('');
  const [filter, setFilter] = useState<StateFilter>('all');
  // Typing stays quick over ten thousand rows: the table follows a moment behind.
  const shownQuery = useDeferredValue(query);
  const shownFilter = useDeferredValue(filter);
  const read = useMemo(() => readPanels(panels ?? [], services), [panels, services]);
  const rows = useMemo(() => fleetServiceRows(read, FLEET_ROWS), [read]);
  const counts = useMemo(() => fleetStateCounts(rows), [rows]);
  const narrowed = shownQuery.trim() !== '' || shownFilter !== 'all';
  const filtered = useMemo(() => filterFleetServices(rows, shownQuery, shownFilter), [rows, shownQuery, shownFilter]);
  const items = useMemo(() => groupFleetServices(filtered, grouping, read, narrowed), [filtered, grouping, read, narrowed]);
  const [selected, setSelected] = useState<ReadonlySet<string>>(NO_SERVICES);
  const chosen = useMemo(() => selectedServices(rows, selected, rowKey), [rows, selected]);
  const stateOf = useCallback((row: FleetServiceRow) => serviceActions.get(row.key), [serviceActions]);
  // Services of read-only panels are offered no action (main would plan none).
  const readOnlyPanels = useMemo(() => new Set((panels ?? []).flatMap((panel) => (panel.readOnly ? [panel.id] : []))), [panels]);
  const readOnlyOf = useCallback((row: FleetServiceRow) => readOnlyPanels.has(row.panelId), [readOnlyPanels]);
  const plans = useMemo(() => planEveryAction(chosen, stateOf, readOnlyOf), [chosen, stateOf, readOnlyOf]);
  const [menu, setMenu] = useState<{ rows: readonly FleetServiceRow[]; at: { x: number; y: number } } | null>(null);
  const openTab = useOpenServiceTab();
  const search = useRef<HTMLInputElement>(null);
  const { run: check, error: checkError } = useBusyAction();
  useEffect(() => search.current?.focus(), []);

  const signedIn = (panels ?? []).filter((panel) => panel.signedIn).length;
  // Check all is offered only where a read would help: not to panels whose last check got no answer.
  const { toRead, unreachable } = useMemo(() => unreadPanels(panels ?? [], services), [panels, services]);
  const unanswered = unreachable.length > 0 && (
    <p className="muted">
      {unansweredNames(unreachable)} did not answer {unreachable.length === 1 ? 'its' : 'their'} last check:{' '}
      {unreachable.length === 1 ? 'its services show' : 'their services show'} here once{' '}
      {unreachable.length === 1 ? 'it answers' : 'they answer'}.
    </p>
  );
  const problems = grouping === 'panel' ? [] : readProblems(read);
  // Straight to main, which shows every service under its panel in its own confirmation and asks once.
  const ask = (targets: readonly FleetServiceRow[], action: ServiceAction) => {
    const { acting, skipped } = planServiceAction(targets, action, stateOf, readOnlyOf);
    if (acting.length === 0) return;
    startServiceRun(context, 'fleet', action, actionItems(acting));
    const leftOut = leftOutText(skipped, (row) => `${row.panelName}: ${row.projectName}/${row.name}`);
    if (leftOut) context.statusStore.showNotice({ text: leftOut, failed: false });
  };
  const openMenu = useCallback(
    (row: FleetServiceRow, at: { x: number; y: number }) =>
      setMenu({ rows: chosen.length > 1 && chosen.some((one) => one.key === row.key) ? chosen : [row], at }),
    [chosen],
  );
  const checkAll = () => check(async () => void (await api.checkPanels()));
  const checkButton = (
    <button type="button" onClick={() => void checkAll()}>
      Check all
    </button>
  );

  return (
    <section className="activity-view fleet-services-view" aria-labelledby="fleet-services-title">
      <header className="activity-header">
        <h1 id="fleet-services-title">All services</h1>
        <button type="button" onClick={() => locationStore.show('panels')}>
          Back to the panel
        </button>
      </header>
      <div className="activity-filters fleet-services-tools">
        <SearchField
          ref={search}
          label="Search services of every panel"
          placeholder="Search panel, group, project, service, type, state"
          value={query}
          onSearch={setQuery}
        />
        <label className="fleet-services-filter">
          State{' '}
          <select value={filter} onChange={(event) => setFilter(event.target.value as StateFilter)}>
            {(Object.keys(STATE_FILTER_NAMES) as StateFilter[]).map((key) => (
              <option key={key} value={key}>
                {STATE_FILTER_NAMES[key]}
              </option>
            ))}
          </select>
        </label>
        <fieldset className="layout-toggle fleet-services-grouping">
          <legend>Group by</legend>
          <span className="muted" aria-hidden="true">
            Group by
          </span>
          {GROUPINGS.map(([key, name]) => (
            <button
              key={key}
              type="button"
              className="button-small"
              aria-pressed={grouping === key}
              onClick={() => panelListChoicesStore.change({ servicesGroupBy: key })}
            >
              {name}
            </button>
          ))}
        </fieldset>
      </div>
      {rows.length > 0 && (
        <div className="fleet-services-counts">
          <ul className="fleet-counts" aria-label="Services by state">
            <li>
              {plural(rows.length, 'service')} on {plural(read.length, 'panel')}
            </li>
            {counts.map(({ state, count }) => (
              <li key={state} className="fleet-count">
                <span className={`state-mark state-${state}`} aria-hidden="true" />
                {formatCount(count)} {state}
              </li>
            ))}
          </ul>
          <p className="muted fleet-matches" role="status">
            {narrowed ? `${formatCount(filtered.length)} shown` : ''}
          </p>
        </div>
      )}
      {toRead.length > 0 && read.length > 0 && (
        <div className="notice notice-info">
          <p>
            {plural(toRead.length, 'signed-in panel has', 'signed-in panels have')} not been read since Paneldeck started: Check all reads
            them.
          </p>
          {checkButton}
        </div>
      )}
      {read.length > 0 && unanswered}
      {problems.length > 0 && (
        <p className="notice notice-warning">
          {plural(problems.length, "panel's last read failed", "panels' last reads failed")}, so{' '}
          {problems.length === 1 ? 'its rows are' : 'their rows are'} as read before:{' '}
          {problems
            .slice(0, 3)
            .map(({ panel, message }) => `${panel.name}: ${message}`)
            .join('; ')}
          {problems.length > 3 ? '…' : ''}
        </p>
      )}
      {checkError && <p className="field-error">{checkError.message}</p>}
      {/* Any run under way (a panel's tab may have started it: main holds one at a time), and the summary of this view's own. */}
      {run && (run.results === null || run.from === 'fleet') && (
        <FleetRunBar run={run} onCancel={() => cancelServiceRun(context)} onDismiss={() => serviceActionStore.dismissRun()} />
      )}
      {chosen.length > 0 && (
        <ServiceActionBar
          count={chosen.length}
          plans={plans}
          onChoose={(action) => ask(chosen, action)}
          onClear={() => setSelected(NO_SERVICES)}
        />
      )}
      {signedIn === 0 ? (
        <p className="muted fleet-services-empty">
          No panel is signed in. Log in to a panel (choose it in the list) and its services show here after its first check.
        </p>
      ) : read.length === 0 ? (
        <div className="fleet-services-empty">
          {toRead.length > 0 && (
            <>
              <p className="muted">
                The services of the {plural(toRead.length, 'signed-in panel')} have not been read since Paneldeck started. Check all reads
                them (the background checks do too).
              </p>
              {checkButton}
            </>
          )}
          {unanswered}
        </div>
      ) : items.length === 0 ? (
        <p className="muted fleet-services-empty">
          {rows.length === 0 ? 'The panels read have no services yet.' : 'No service matches. Esc in the search box clears it.'}
        </p>
      ) : (
        <FleetServicesTable
          items={items}
          count={filtered.length}
          selected={selected}
          actions={serviceActions}
          onSelect={setSelected}
          onOpenMenu={openMenu}
          now={now}
          grouping={grouping}
        />
      )}
      {menu && (
        <ServiceRowMenu
          at={menu.at}
          label={
            menu.rows.length > 1
              ? `${menu.rows.length} services`
              : `${menu.rows[0]!.panelName}: ${menu.rows[0]!.projectName}/${menu.rows[0]!.name}`
          }
          services={menu.rows}
          stateOf={stateOf}
          readOnlyOf={readOnlyOf}
          onAsk={ask}
          onOpenTab={(row, tab) => openTab(row.panelId, row, tab)}
          onClose={() => setMenu(null)}
        />
      )}
    </section>
  );
}
