import { useCallback, useDeferredValue, useMemo, useState } from 'react';
import { SERVICE_ACTION_LABELS, type ServiceAction } from '../../shared/service-actions.ts';
import type { ServiceList, ServiceSummary } from '../../shared/services.ts';
import type { Panel } from '../../shared/types.ts';
import { useServiceActions, useWindowContext } from '../window/app-context.tsx';
import { RunProgress } from './action-run-bar.tsx';
import { formatCount } from '../ui/json-rows.ts';
import { actionSummary, leftOutText, planEveryAction, planServiceAction } from './service-action-plan.ts';
import { cancelServiceRun, isPanelRun, startServiceRun } from './service-action-run.ts';
import { filterServices, sortServices, stateCounts } from './service-rows.ts';
import { NO_SERVICES, selectedServices, serviceKey } from './service-selection.ts';
import { serviceActionKey } from '../window/service-action-store.ts';
import { ReadBar, usePanelRead } from '../ui/read-bar.tsx';
import { ServiceRowMenu, useOpenServiceTab } from './service-row-menu.tsx';
import { ServiceActionBar } from './service-action-bar.tsx';
import { ServiceTable } from './service-table.tsx';
import { SearchField } from '../ui/search-field.tsx';

/** The row menu open: the services it acts on (the row's, or the selection it is in) and where. */
interface OpenMenu {
  services: readonly ServiceSummary[];
  at: { x: number; y: number };
}

/**
 * The panel's projects and services with their state (a colour and a shape, and the word),
 * replicas, type and last action; a search box narrows them. Deploy, start, stop and restart from
 * a row's menu or on a selection, each asked once in main's own confirmation. Read in the background; a panel of
 * thousands of services keeps only the rows in view in the page.
 */
export function ServicesTab({ panel }: { panel: Panel }) {
  const context = useWindowContext();
  const { reads } = context;
  const { states: serviceActions, run: serviceRun } = useServiceActions();
  const state = usePanelRead(reads.services, panel.id);
  const openTab = useOpenServiceTab();
  const list = state.value;
  const [query, setQuery] = useState('');
  // Typing stays quick with thousands of rows: the table follows a moment behind.
  const shownQuery = useDeferredValue(query);
  const sorted = useMemo(() => sortServices(list?.services ?? []), [list]);
  const rows = useMemo(() => filterServices(sorted, shownQuery), [sorted, shownQuery]);
  const counts = useMemo(() => stateCounts(sorted), [sorted]);
  const [selected, setSelected] = useState<ReadonlySet<string>>(NO_SERVICES);
  const chosen = useMemo(() => selectedServices(sorted, selected), [sorted, selected]);
  const [menu, setMenu] = useState<OpenMenu | null>(null);
  const stateOf = useCallback(
    (service: ServiceSummary) => serviceActions.get(serviceActionKey(panel.id, service.projectName, service.name)),
    [serviceActions, panel.id],
  );
  // A read-only panel is offered no action (main would plan none).
  const readOnlyOf = useCallback(() => panel.readOnly, [panel.readOnly]);
  const plans = useMemo(() => planEveryAction(chosen, stateOf, readOnlyOf), [chosen, stateOf, readOnlyOf]);

  const openMenu = useCallback(
    (service: ServiceSummary, at: OpenMenu['at']) => {
      // A row in a selection of several opens the selection's menu; any other row, its own.
      const inSelection = chosen.length > 1 && chosen.some((one) => serviceKey(one) === serviceKey(service));
      setMenu({ services: inSelection ? chosen : [service], at });
    },
    [chosen],
  );
  // Straight to main: it shows what will be sent in its own confirmation and asks once; the
  // services whose type lacks the action, or busy with another, are not asked for.
  const run = (services: readonly ServiceSummary[], action: ServiceAction) => {
    const { acting, skipped } = planServiceAction(services, action, stateOf, readOnlyOf);
    if (acting.length === 0) return;
    // Main runs it (followServiceRuns tells the outcome and reads the services again once it ended).
    const items = acting.map(({ projectName, name }) => ({ panelId: panel.id, projectName, serviceName: name }));
    startServiceRun(context, { panelId: panel.id }, action, items);
    const leftOut = leftOutText(skipped);
    if (leftOut) context.statusStore.showNotice({ text: leftOut, failed: false });
  };

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
          <ServiceTools
            list={list}
            total={sorted.length}
            counts={counts}
            query={query}
            onQuery={setQuery}
            actions={actionSummary(panel.id, serviceActions)}
          />
          {isPanelRun(serviceRun, panel.id) && (
            <RunProgress
              run={serviceRun}
              label={`${SERVICE_ACTION_LABELS[serviceRun.action]} on ${panel.name}`}
              onCancel={() => cancelServiceRun(context)}
            />
          )}
          {chosen.length > 0 && (
            <ServiceActionBar
              count={chosen.length}
              plans={plans}
              onChoose={(action) => run(chosen, action)}
              onClear={() => setSelected(NO_SERVICES)}
            />
          )}
          {sorted.length === 0 ? (
            <p className="muted">This panel has no services yet.</p>
          ) : rows.length === 0 ? (
            <p className="muted">No service matches “{shownQuery}”.</p>
          ) : (
            <ServiceTable
              panelId={panel.id}
              rows={rows}
              selected={selected}
              actions={serviceActions}
              onSelect={setSelected}
              onOpenMenu={openMenu}
            />
          )}
        </>
      )}
      {menu && (
        <ServiceRowMenu
          at={menu.at}
          label={menu.services.length > 1 ? `${menu.services.length} services` : serviceKey(menu.services[0]!)}
          services={menu.services}
          stateOf={stateOf}
          readOnlyOf={readOnlyOf}
          onAsk={run}
          onOpenTab={(service, tab) => openTab(panel.id, service, tab)}
          onClose={() => setMenu(null)}
        />
      )}
    </section>
  );
}

interface ServiceToolsProps {
  list: ServiceList;
  total: number;
  counts: string;
  query: string;
  onQuery(query: string): void;
  /** How the panel's service actions in this window stand ("1 deploying, 2 done"), or empty. */
  actions: string;
}

/** The search box, the counts, and what the panel did not say (more services than shown, the task stats). */
function ServiceTools({ list, total, counts, query, onQuery, actions }: ServiceToolsProps) {
  return (
    <>
      <div className="services-tools">
        <SearchField
          className="services-search"
          label="Search services by project, name, type or state"
          placeholder="Search services"
          value={query}
          onSearch={onQuery}
        />
        <p className="muted services-counts">
          {`${formatCount(list.projects.length)} project${list.projects.length === 1 ? '' : 's'}, ${formatCount(total)} service${total === 1 ? '' : 's'}`}
          {counts && `: ${counts}`}
        </p>
        <p className="services-actions-status" role="status">
          {actions}
        </p>
      </div>
      {list.truncated && (
        <p className="notice notice-warning">
          The panel lists more services than Paneldeck shows; the first {formatCount(total)} are here.
        </p>
      )}
      {list.taskStatsProblem !== null && (
        <div className="notice notice-warning">
          <p className="notice-title">Which services run could not be read, so their state is unknown</p>
          <p>{list.taskStatsProblem}</p>
        </div>
      )}
    </>
  );
}
