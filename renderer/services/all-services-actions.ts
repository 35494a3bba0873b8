import { plural } from '../../shared/counts.ts';
import type { ServiceActionItem, ServiceActionItemResult } from '../../shared/fleet-services.ts';
import { SERVICE_ACTION_LABELS, type ServiceAction } from '../../shared/service-actions.ts';
import type { FleetServiceRow } from './all-services-rows.ts';
import { effectOn, type PlanGroup, type ServiceActionPlan } from './service-action-plan.ts';
import { outcomesText } from './service-action-run.ts';
import type { ServiceActionState } from '../window/service-action-store.ts';

/**
 * An action across panels (the fleet's Services view), worked out before it is asked and told
 * while it runs: the confirmation's groups (per panel, then those left out and why), the phrase
 * typed when a production panel is among them, the progress and the summary. Pure.
 */

export type FleetPlan = ServiceActionPlan<FleetServiceRow>;

/**
 * What must be typed before the action is sent, when a red (production) panel is among the panels
 * acted on: with one red panel, its name; with several, the action and the count ("restart 12
 * services"), which says what is about to happen rather than naming one panel of several. Null
 * when no red panel is acted on. Any action asks it: across panels, a restart reaches many at once.
 */
export function fleetTypedPhrase({ action, acting }: FleetPlan): string | null {
  const red = new Map<string, string>();
  for (const row of acting) if (row.panelColour === 'red') red.set(row.panelId, row.panelName);
  if (red.size === 0) return null;
  if (red.size === 1) return [...red.values()][0]!;
  return `${action} ${plural(acting.length, 'service')}`;
}

/** How many panels the rows are on. */
export function panelCount(rows: readonly FleetServiceRow[]): number {
  return new Set(rows.map((row) => row.panelId)).size;
}

/**
 * The confirmation's groups: one per panel acted on (in the table's order, a red panel said as
 * production), then those left out grouped by why.
 */
export function fleetPlanGroups({ acting, skipped }: FleetPlan): PlanGroup<FleetServiceRow>[] {
  const groups = new Map<string, { heading: string; skipped: boolean; services: FleetServiceRow[] }>();
  const add = (key: string, heading: string, isSkipped: boolean, row: FleetServiceRow) => {
    const group = groups.get(key) ?? { heading, skipped: isSkipped, services: [] };
    group.services.push(row);
    groups.set(key, group);
  };
  for (const row of acting)
    add(`panel:${row.panelId}`, `${row.panelName}${row.panelColour === 'red' ? ' (red: production)' : ''}`, false, row);
  for (const { service, why } of skipped) add(`skip:${why}`, `Left out, sent nothing: ${why}`, true, service);
  return [...groups.values()];
}

/** What the action does to the services acted on, one line per kind (apps, databases), capitalised. */
export function fleetEffects({ action, acting }: FleetPlan): string[] {
  const effects = new Set<string>();
  for (const row of acting) {
    const effect = effectOn(row, action);
    effects.add(effect.charAt(0).toUpperCase() + effect.slice(1));
  }
  return [...effects];
}

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
  results: readonly ServiceActionItemResult[],
  panelName: (panelId: string) => string,
): { text: string; failed: boolean } {
  const panels = new Set(results.map((result) => result.panelId)).size;
  return outcomesText(
    `${SERVICE_ACTION_LABELS[action]} of ${plural(results.length, 'service')} on ${plural(panels, 'panel')}`,
    results.map((result) => ({
      name: `${panelName(result.panelId)}: ${result.projectName}/${result.serviceName}`,
      state: { phase: result.outcome, message: result.message },
    })),
  );
}
