import { plural } from '../../shared/counts.ts';
import {
  actionsOfType,
  missingActionReason,
  SERVICE_ACTION_LABELS,
  SERVICE_ACTIONS,
  type ServiceAction,
} from '../../shared/service-actions.ts';
import type { ServiceSummary } from '../../shared/services.ts';
import type { ServiceActionState } from '../window/service-action-store.ts';

/**
 * What an action on one service or a selection will do, worked out before it is asked: the
 * services it acts on, those it leaves out and why, the menu's and the bar's words. Pure.
 */

/** A service left out of an action, and why, in a few words. */
export interface SkippedService<T extends ServiceSummary = ServiceSummary> {
  service: T;
  why: string;
}

export interface ServiceActionPlan<T extends ServiceSummary = ServiceSummary> {
  action: ServiceAction;
  /** The services it is sent to, in the table's order. */
  acting: readonly T[];
  skipped: readonly SkippedService<T>[];
}

/** Whether a service's last action is still queued or under way: another would be refused. */
export const isBusy = (state: ServiceActionState | undefined): boolean => state?.phase === 'queued' || state?.phase === 'sent';

/** Whether a service's panel is read-only (`Panel.readOnly`): main plans no write for it, so none is offered. */
export type ReadOnlyOf<T> = (service: T) => boolean;

const WRITABLE: ReadOnlyOf<unknown> = () => false;
export const READ_ONLY_WHY = 'its panel is read-only';

/** `action` on `services`: those on a read-only panel, whose type lacks it, or with an action under way, are skipped. */
export function planServiceAction<T extends ServiceSummary>(
  services: readonly T[],
  action: ServiceAction,
  stateOf: (service: T) => ServiceActionState | undefined,
  readOnlyOf: ReadOnlyOf<T> = WRITABLE,
): ServiceActionPlan<T> {
  const acting: T[] = [];
  const skipped: SkippedService<T>[] = [];
  for (const service of services) {
    const missing = readOnlyOf(service) ? READ_ONLY_WHY : missingActionReason(service.type, action);
    const why = missing ?? (isBusy(stateOf(service)) ? 'an action is already under way on it' : null);
    if (why === null) acting.push(service);
    else skipped.push({ service, why });
  }
  return { action, acting, skipped };
}

const isDatabase = (type: string) => actionsOfType(type).length === 2;

/** A row menu's or the bar's item: an action and its words, or a line saying there is none. */
export interface ServiceMenuItem {
  action: ServiceAction | null;
  label: string;
  disabled: boolean;
  danger: boolean;
}

/** The row menu of one service: the actions its type has (a database's start and stop said as enable and disable). */
export function oneServiceItems(service: ServiceSummary, state: ServiceActionState | undefined, readOnly = false): ServiceMenuItem[] {
  if (readOnly) return [{ action: null, label: 'No actions: the panel is read-only', disabled: true, danger: false }];
  const actions = actionsOfType(service.type);
  if (actions.length === 0) {
    return [{ action: null, label: `No actions for a ${service.type.slice(0, 40)} service`, disabled: true, danger: false }];
  }
  const busy = isBusy(state);
  const database = isDatabase(service.type);
  return actions
    .filter((action) => !database || databaseActionChangesIt(service.state, action))
    .map((action) => ({
      action,
      label: `${SERVICE_ACTION_LABELS[action]}${database ? (action === 'start' ? ' (enable)' : ' (disable)') : ''}…`,
      disabled: busy,
      danger: action === 'stop',
    }));
}

/**
 * Whether starting (enabling) or stopping (disabling) a database in `state` would change it: a running
 * one is not offered Start (enable), a disabled one not Stop (disable); a state not known offers both.
 */
function databaseActionChangesIt(state: ServiceSummary['state'], action: ServiceAction): boolean {
  if (state === 'unknown') return true;
  const enabled = state !== 'disabled' && state !== 'stopped';
  return action === 'start' ? !enabled : action === 'stop' ? enabled : true;
}

/** The menu of a selection of several: each action with how many it acts on ("Deploy 2 of 3 services…"). */
export function severalServicesItems(plans: readonly ServiceActionPlan[]): ServiceMenuItem[] {
  return plans.map(({ action, acting, skipped }) => {
    const all = acting.length + skipped.length;
    const many = skipped.length === 0 ? plural(all, 'service') : `${acting.length} of ${plural(all, 'service')}`;
    return { action, label: `${SERVICE_ACTION_LABELS[action]} ${many}…`, disabled: acting.length === 0, danger: action === 'stop' };
  });
}

/** Each action planned on `services`, in the buttons' order. */
export function planEveryAction<T extends ServiceSummary>(
  services: readonly T[],
  stateOf: (service: T) => ServiceActionState | undefined,
  readOnlyOf: ReadOnlyOf<T> = WRITABLE,
): ServiceActionPlan<T>[] {
  return SERVICE_ACTIONS.map((action) => planServiceAction(services, action, stateOf, readOnlyOf));
}

const PHASE_ORDER = ['sent', 'queued', 'done', 'failed', 'unknown', 'cancelled'] as const;
const PHASE_WORDS = {
  sent: 'under way',
  queued: 'waiting',
  done: 'done',
  failed: 'failed',
  unknown: 'outcome unknown',
  cancelled: 'not sent',
} as const;

/** How a service's last action stands, in its row: "Stop done", "Deploying", "Restart waiting". */
export function phaseText({ action, phase }: ServiceActionState): string {
  return phase === 'sent' && action === 'deploy' ? 'Deploying' : `${SERVICE_ACTION_LABELS[action]} ${PHASE_WORDS[phase]}`;
}

/**
 * The panel's service actions in this window, in one line: "1 deploying, 2 waiting, 3 done,
 * 1 failed". One live region for the table, so that each row's change is not read out on its own.
 */
export function actionSummary(panelId: string, actions: ReadonlyMap<string, ServiceActionState>): string {
  const prefix = `${panelId}/`;
  const counts = new Map<string, number>();
  for (const [key, { action, phase }] of actions) {
    if (!key.startsWith(prefix)) continue;
    const word = phase === 'sent' && action === 'deploy' ? 'deploying' : PHASE_WORDS[phase];
    counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  const words = ['deploying', ...PHASE_ORDER.map((phase) => PHASE_WORDS[phase])];
  const parts = words.filter((word) => counts.has(word)).map((word) => `${counts.get(word)} ${word}`);
  return parts.length === 0 ? '' : `Service actions: ${parts.join(', ')}`;
}

/**
 * What the window says, while main asks, of the services chosen that are not asked of main (their
 * type lacks the action, or another action is under way on them), grouped by why; null for none.
 * A group of more than three is counted rather than named.
 */
export function leftOutText<T extends ServiceSummary>(
  skipped: readonly SkippedService<T>[],
  nameOf: (service: T) => string = (service) => `${service.projectName}/${service.name}`,
): string | null {
  if (skipped.length === 0) return null;
  const byWhy = new Map<string, string[]>();
  for (const { service, why } of skipped) byWhy.set(why, [...(byWhy.get(why) ?? []), nameOf(service)]);
  const groups = [...byWhy].map(([why, names]) => `${names.length <= 3 ? names.join(', ') : plural(names.length, 'service')} (${why})`);
  return `Left out, sent nothing: ${groups.join('; ')}.`;
}
