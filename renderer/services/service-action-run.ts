import type { PanelBridge } from '../../shared/contract/bridge.ts';
import { plural } from '../../shared/counts.ts';
import { SERVICE_ACTION_LABELS, type ServiceAction } from '../../shared/service-actions.ts';
import type { Panel } from '../../shared/types.ts';
import { failureInfo } from '../window/failure-info.ts';
import {
  serviceActionKey,
  type ServiceActionState,
  type ServiceActionStore,
  type ServiceActionTarget,
} from '../window/service-action-store.ts';
import type { StatusStore } from '../window/status-store.ts';

/** A service action the operator chose, before and while it runs. */
export interface ServiceActionRequest extends ServiceActionTarget {
  action: ServiceAction;
}

/** How many actions of a selection are on their way to the panel at once: a small bound, kind to the panel. */
export const ACTIONS_AT_ONCE = 2;

const DONE: Readonly<Record<ServiceAction, string>> = { deploy: 'Deployed', start: 'Started', stop: 'Stopped', restart: 'Restarted' };

/**
 * What the action will do, said before it is asked: the service, the panel, and what follows. Main
 * learns the type afresh; a database's start and stop are its enable and disable.
 */
export function serviceActionEffect({ action, projectName, serviceName }: ServiceActionRequest, panel: Panel): string {
  const target = `${projectName}/${serviceName} on ${panel.name} (${panel.address})`;
  switch (action) {
    case 'deploy':
      return `The panel builds ${target} from its source and rolls out the new version. It can take minutes; closing Paneldeck or this view does not cancel it.`;
    case 'start':
      return `The panel starts ${target}: its containers run again (a database is enabled).`;
    case 'stop':
      return `The panel stops ${target}: its containers stop and it serves nothing until it is started again (a database is disabled).`;
    case 'restart':
      return `The panel restarts ${target}: its containers start again and it may not answer for a moment.`;
  }
}

type Ended = ServiceActionState & { phase: 'done' | 'failed' | 'unknown' };

/** Sends one action, once; its outcome, a refusal in the panel's words, no answer said as unknown. */
async function sendOnce(api: Pick<PanelBridge, 'runServiceAction'>, panel: Panel, request: ServiceActionRequest): Promise<Ended> {
  const { action } = request;
  try {
    const result = await api.runServiceAction(panel.id, request);
    return result.outcome === 'done' ? { action, phase: 'done', message: null } : { action, phase: 'unknown', message: result.message };
  } catch (caught) {
    return { action, phase: 'failed', message: failureInfo(caught).message };
  }
}

/**
 * Sends `action` to each service once, `ACTIONS_AT_ONCE` at a time, never retried: a failure does
 * not stop the others. Each row shows its phase (the window store's, so leaving the tab loses
 * nothing); the outcome is the window's notice, in the panel's words for a failure, and no answer
 * is said as such, never as a failure. Main records each in the activity log.
 */
export async function runServiceActions(
  api: Pick<PanelBridge, 'runServiceAction'>,
  {
    statusStore,
    serviceActionStore,
  }: { statusStore: Pick<StatusStore, 'showNotice'>; serviceActionStore: Pick<ServiceActionStore, 'setStates'> },
  panel: Panel,
  action: ServiceAction,
  targets: readonly ServiceActionTarget[],
): Promise<void> {
  // The last outcome said is no longer the news: this run's will be.
  statusStore.showNotice(null);
  const keyOf = ({ projectName, serviceName }: ServiceActionTarget) => serviceActionKey(panel.id, projectName, serviceName);
  serviceActionStore.setStates(targets.map((target) => [keyOf(target), { action, phase: 'queued', message: null }] as const));
  const ended: { target: ServiceActionTarget; state: Ended }[] = [];
  let next = 0;
  const worker = async () => {
    for (let index = next++; index < targets.length; index = next++) {
      const target = targets[index]!;
      const state = await sendOnce(api, panel, { ...target, action });
      // Main's events said the same when it sent the action; a refusal before sending has no event.
      serviceActionStore.setStates([[keyOf(target), state]]);
      ended.push({ target, state });
    }
  };
  await Promise.all(Array.from({ length: Math.min(ACTIONS_AT_ONCE, targets.length) }, worker));
  const [only] = ended;
  statusStore.showNotice(ended.length === 1 && only ? oneOutcome(panel, only.target, only.state) : severalOutcomes(panel, action, ended));
}

/** One service's outcome: "Stopped shop/web on Billing.", or the panel's words. */
function oneOutcome(panel: Panel, { projectName, serviceName }: ServiceActionTarget, { action, phase, message }: Ended) {
  const target = `${projectName}/${serviceName} on ${panel.name}`;
  const label = SERVICE_ACTION_LABELS[action];
  if (phase === 'done') return { text: `${DONE[action]} ${target}.`, failed: false };
  if (phase === 'unknown') return { text: `${label} of ${target}: outcome unknown. ${message ?? ''}`.trim(), failed: false };
  return { text: `${label} of ${target} failed: ${message ?? ''}`.trim(), failed: true };
}

/** Failures named with the panel's words up to this many; the rows say the rest. */
const NAMED_FAILURES = 3;

/** Several services' outcomes in one notice: the counts, then each failure in the panel's words. */
export function severalOutcomes(
  panel: Panel,
  action: ServiceAction,
  ended: readonly { target: ServiceActionTarget; state: Ended }[],
): { text: string; failed: boolean } {
  const name = ({ projectName, serviceName }: ServiceActionTarget) => `${projectName}/${serviceName}`;
  return outcomesText(
    `${SERVICE_ACTION_LABELS[action]} of ${plural(ended.length, 'service')} on ${panel.name}`,
    ended.map(({ target, state }) => ({ name: name(target), state })),
  );
}

/** An ended item of a run as its summary names it ("shop/web", or "Billing: shop/web" across panels). */
export interface NamedOutcome {
  name: string;
  state: Pick<ServiceActionState, 'phase' | 'message'>;
}

/**
 * Outcomes in one text: "`subject`: 3 done, 1 failed, 2 cancelled before being sent.", then each failure
 * in the panel's words (up to a few; the rows say the rest), then those of unknown outcome.
 */
export function outcomesText(subject: string, ended: readonly NamedOutcome[]): { text: string; failed: boolean } {
  const of = (phase: ServiceActionState['phase']) => ended.filter(({ state }) => state.phase === phase);
  const failed = of('failed');
  const unknown = of('unknown');
  const cancelled = of('cancelled');
  const counts = [
    `${of('done').length} done`,
    failed.length > 0 && `${failed.length} failed`,
    unknown.length > 0 && `${unknown.length} with the outcome unknown`,
    cancelled.length > 0 && `${cancelled.length} cancelled before being sent`,
  ].filter(Boolean);
  const parts = [`${subject}: ${counts.join(', ')}.`];
  for (const { name, state } of failed.slice(0, NAMED_FAILURES)) parts.push(`${name} failed: ${state.message ?? ''}`.trim());
  if (failed.length > NAMED_FAILURES) parts.push(`${failed.length - NAMED_FAILURES} more failed: their rows say why.`);
  if (unknown.length > 0) {
    const names = unknown.slice(0, NAMED_FAILURES).map(({ name }) => name);
    parts.push(
      `Outcome unknown for ${names.join(', ')}${unknown.length > NAMED_FAILURES ? ' and others' : ''}: ${unknown[0]!.state.message ?? 'check them.'}`,
    );
  }
  return { text: parts.join(' '), failed: failed.length > 0 };
}
