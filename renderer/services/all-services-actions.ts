import { plural } from '../../shared/counts.ts';
import type { ServiceActionItem } from '../../shared/fleet-services.ts';
import { SERVICE_ACTION_LABELS, type ServiceAction } from '../../shared/service-actions.ts';
import type { FleetServiceRow } from './all-services-rows.ts';
import { outcomesText } from './service-action-run.ts';
import { type RunItemState, runStates, type ServiceActionState, type ServiceRun } from '../window/service-action-store.ts';

/**
 * An action across panels (the fleet's Services view) as it is asked of main and told while it
 * runs: the items, the progress and the summary. Pure. Main's own confirmation shows the plan.
 */

/** The items `runServiceActions` is asked for, in the table's order. */
export function actionItems(rows: readonly FleetServiceRow[]): ServiceActionItem[] {
  return rows.map(({ panelId, projectName, name }) => ({ panelId, projectName, serviceName: name }));
}

const ENDED: ReadonlySet<ServiceActionState['phase']> = new Set(['done', 'failed', 'unknown', 'cancelled']);

/** How many of the run's items (by key) have ended, as the window's service actions say. */
export function endedCount(keys: readonly string[], actions: ReadonlyMap<string, ServiceActionState>, action: ServiceAction): number {
  let ended = 0;
  for (const key of keys) {
    const state = actions.get(key);
    if (state?.action === action && ENDED.has(state.phase)) ended++;
  }
  return ended;
}

/** The run's summary: the counts, then each failure in the panel's words, named "Panel: project/service". */
export function fleetOutcomes(
  action: ServiceAction,
  ended: readonly RunItemState[],
  panelName: (panelId: string) => string,
): { text: string; failed: boolean } {
  const panels = new Set(ended.map(({ item }) => item.panelId)).size;
  return outcomesText(
    `${SERVICE_ACTION_LABELS[action]} of ${plural(ended.length, 'service')} on ${plural(panels, 'panel')}`,
    ended.map(({ item, state }) => ({ name: `${panelName(item.panelId)}: ${item.projectName}/${item.serviceName}`, state })),
  );
}

/**
 * The summary of `run` once ended, as All services shows it; null while it runs. Counted from the
 * window's states of its items, which its rows say: never a count of its own beside them.
 */
export function runSummary(
  run: ServiceRun,
  states: ReadonlyMap<string, ServiceActionState>,
  panelName: (panelId: string) => string,
): { text: string; failed: boolean } | null {
  return run.results === null ? null : fleetOutcomes(run.action, runStates(run, states), panelName);
}
