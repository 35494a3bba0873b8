import type { PanelBridge } from '../../shared/contract/bridge.ts';
import { plural } from '../../shared/counts.ts';
import type { ServiceActionItem } from '../../shared/fleet-services.ts';
import type { ServiceList } from '../../shared/services.ts';
import { SERVICE_ACTION_LABELS, type ServiceAction } from '../../shared/service-actions.ts';
import type { Panel } from '../../shared/types.ts';
import { failureInfo } from '../window/failure-info.ts';
import type { ReadStore } from '../window/panel-reads.ts';
import type { PanelStore } from '../window/panel-store.ts';
import {
  type RunItemState,
  runStates,
  type ServiceActionState,
  type ServiceActionStore,
  type ServiceActionTarget,
  type ServiceRun,
  type ServiceRunOrigin,
} from '../window/service-action-store.ts';
import type { StatusStore, WindowNotice } from '../window/status-store.ts';

/** A service action the operator chose, before and while it runs. */
export interface ServiceActionRequest extends ServiceActionTarget {
  action: ServiceAction;
}

const DONE: Readonly<Record<ServiceAction, string>> = { deploy: 'Deployed', start: 'Started', stop: 'Stopped', restart: 'Restarted' };

/** What a run of service actions uses of the window. */
export interface ServiceRunDeps {
  api: Pick<PanelBridge, 'runServiceActions' | 'cancelServiceActions'>;
  serviceActionStore: ServiceActionStore;
  statusStore: Pick<StatusStore, 'showNotice'>;
}

/**
 * Asks main to run `action` on the items: the one path of service actions, from a panel's Services
 * tab (its one panel's items) or from All services. Main sends each once, never retried, a bounded
 * number at a time (and fewer per panel), records each, tells each step, and holds the run, so
 * that Cancel works and a reload of the window finds it again. A refusal of the whole run (another
 * one runs, a panel gone) is the window's notice: nothing was sent.
 */
export function startServiceRun(
  { api, serviceActionStore, statusStore }: ServiceRunDeps,
  from: ServiceRunOrigin,
  action: ServiceAction,
  items: readonly ServiceActionItem[],
): void {
  // The last outcome said is no longer the news: this run's will be.
  statusStore.showNotice(null);
  const run = serviceActionStore.startRun(from, action, items);
  api.runServiceActions([...items], action).then(
    (results) => serviceActionStore.endRun(results, run),
    (caught: unknown) => {
      const { code, message } = failureInfo(caught);
      serviceActionStore.refuseRun(run, message);
      // A no in main's confirmation is the operator's own choice, not a failure.
      statusStore.showNotice(
        code === 'NOT_CONFIRMED'
          ? { text: `${SERVICE_ACTION_LABELS[action]} not sent: it was not confirmed.`, failed: false }
          : { text: `${SERVICE_ACTION_LABELS[action]} not started, nothing was sent: ${message}`, failed: true },
      );
    },
  );
}

/** Cancel: main starts nothing more of the run (those items end as not sent); what was sent finishes. */
export function cancelServiceRun({ api, serviceActionStore }: Pick<ServiceRunDeps, 'api' | 'serviceActionStore'>): void {
  serviceActionStore.cancelling();
  // A refusal here leaves the run as it was: its own results still arrive.
  api.cancelServiceActions().catch(() => undefined);
}

/** What the end of a run uses of the window: the panels, their services' reads, main's checks. */
export interface RunEndDeps extends Pick<ServiceRunDeps, 'serviceActionStore' | 'statusStore'> {
  api: Pick<PanelBridge, 'checkPanels'>;
  panelStore: Pick<PanelStore, 'getSnapshot'>;
  services: Pick<ReadStore<ServiceList>, 'load'>;
}

/**
 * What follows the end of every run, however the window heard of it (main's answer, or its event
 * after a reload): a panel's run is told in the window's notice and its services read again (their
 * states changed); a run across panels keeps its summary in All services and checks its panels
 * again, so that their rows say what the panels say now. Returns the stop.
 */
export function followServiceRuns({ serviceActionStore, statusStore, api, panelStore, services }: RunEndDeps): () => void {
  let seen = serviceActionStore.getSnapshot().run;
  return serviceActionStore.subscribe(() => {
    const { run } = serviceActionStore.getSnapshot();
    const ended = run !== seen && run?.results != null && seen?.results === null ? run : null;
    seen = run;
    if (!ended?.results) return;
    const panelIds = [...new Set(ended.items.map((item) => item.panelId))];
    if (ended.from === 'fleet') {
      // Only the rows' states are late if this fails: the next background check reads them.
      api.checkPanels(panelIds).catch(() => undefined);
      return;
    }
    const { panelId } = ended.from;
    const panel = panelStore.getSnapshot().byId.get(panelId);
    // Told from the states its rows say, as All services' summary is.
    if (panel) statusStore.showNotice(panelRunOutcome(panel, ended.action, runStates(ended, serviceActionStore.getSnapshot().states)));
    serviceActionStore.dismissRun();
    // Unless signed out meanwhile.
    if (panel?.signedIn) void services.load(panelId);
  });
}

/** Whether `run` is under way and the Services tab of `panelId` shows it (its progress and Cancel). */
export function isPanelRun(run: ServiceRun | null, panelId: string): run is ServiceRun {
  return run !== null && run.results === null && run.from !== 'fleet' && run.from.panelId === panelId;
}

type Ended = Pick<ServiceActionState, 'phase' | 'message'>;

/** A run on one panel's services, in one notice: one service's outcome in a sentence, several counted. */
export function panelRunOutcome(panel: Panel, action: ServiceAction, ended: readonly RunItemState[]): WindowNotice {
  const [only] = ended;
  // One ended is said in a sentence; one cancelled (or, its row says, not ended) is counted.
  const said = only?.state.phase === 'done' || only?.state.phase === 'failed' || only?.state.phase === 'unknown';
  if (ended.length === 1 && only && said) return oneOutcome(panel, only.item, action, only.state);
  return severalOutcomes(
    panel,
    action,
    ended.map(({ item, state }) => ({ target: item, state })),
  );
}

/** One service's outcome: "Stopped shop/web on Billing.", or the panel's words. */
function oneOutcome(panel: Panel, { projectName, serviceName }: ServiceActionTarget, action: ServiceAction, { phase, message }: Ended) {
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
  state: Ended;
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
  // None once its run's results are in, unless its row still says so: then the summary says it too.
  const going = ended.length - of('done').length - failed.length - unknown.length - cancelled.length;
  const counts = [
    `${of('done').length} done`,
    failed.length > 0 && `${failed.length} failed`,
    unknown.length > 0 && `${unknown.length} with the outcome unknown`,
    cancelled.length > 0 && `${cancelled.length} cancelled before being sent`,
    going > 0 && `${going} not ended`,
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
