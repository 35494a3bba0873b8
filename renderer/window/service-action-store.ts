import type { PanelEvent } from '../../shared/contract/events.ts';
import type { ServiceActionItem, ServiceActionItemResult, ServiceActionRun } from '../../shared/fleet-services.ts';
import type { ServiceAction, ServiceActionPhase } from '../../shared/service-actions.ts';
import { SnapshotStore } from './snapshot-store.ts';

type ServiceActionEvent = Extract<PanelEvent, { type: 'serviceActionChanged' }>;

/** A service action as the window last heard of it. */
export interface ServiceActionState {
  action: ServiceAction;
  /**
   * Main's phase, or the window's own words: `queued`, chosen with others and waiting for its turn;
   * `cancelled`, never sent (Cancel came first, or main refused the run).
   */
  phase: ServiceActionPhase | 'queued' | 'cancelled';
  message: string | null;
}

/** A service of a panel, as service actions name it. */
export interface ServiceActionTarget {
  projectName: string;
  serviceName: string;
}

/** The key of a service of a panel in `states`: a slash is in no project or service name. */
export const serviceActionKey = (panelId: string, projectName: string, serviceName: string) => `${panelId}/${projectName}/${serviceName}`;

const keyOf = ({ panelId, projectName, serviceName }: ServiceActionItem) => serviceActionKey(panelId, projectName, serviceName);

/** Each result as the window's service action state, by `serviceActionKey`: one change for them all. */
export function resultStates(results: readonly ServiceActionItemResult[]): [string, ServiceActionState][] {
  return results.map((result) => [keyOf(result), { action: result.action, phase: result.outcome, message: result.message }]);
}

/** An item of a run and how it stands in the window: what its row says, and its summary counts. */
export interface RunItemState {
  item: ServiceActionItem;
  state: ServiceActionState;
}

/**
 * Each item of `run` as the window's `states` say it, in the order asked: the one state its rows
 * and its summary are both made from (an item not heard of yet still waits its turn).
 */
export function runStates(run: ServiceRun, states: ReadonlyMap<string, ServiceActionState>): RunItemState[] {
  return run.items.map((item, index) => ({
    item,
    state: states.get(run.keys[index]!) ?? { action: run.action, phase: 'queued', message: null },
  }));
}

/** Where a run was started: one panel's Services tab (its progress, Cancel and outcome are the tab's), or All services. */
export type ServiceRunOrigin = { panelId: string } | 'fleet';

/** The run of service actions main holds (one at a time), as this window knows it. */
export interface ServiceRun {
  readonly from: ServiceRunOrigin;
  readonly action: ServiceAction;
  readonly items: readonly ServiceActionItem[];
  /** The items' keys (`serviceActionKey`), in the order asked. */
  readonly keys: readonly string[];
  /** Null while it runs; then each item's result, in the order asked. */
  readonly results: readonly ServiceActionItemResult[] | null;
  readonly cancelling: boolean;
}

export interface ServiceActionSnapshot {
  /** Each service's last action in this window (main's `serviceActionChanged`), by `serviceActionKey`. */
  readonly states: ReadonlyMap<string, ServiceActionState>;
  /** The run under way, or the last one ended until it is put away; null when there is none. */
  readonly run: ServiceRun | null;
}

/** How each service's last action stands, and the run main holds: for the Services tab and All services. */
export class ServiceActionStore extends SnapshotStore<ServiceActionSnapshot> {
  /**
   * The keys whose run's results the window has, until a run asks them again: main's events and
   * its answers reach the window by different ways, so a step heard after the results is older.
   */
  readonly #settled = new Set<string>();
  /** A run's end was heard: main's run as it stood when the window started is older news. */
  #endHeard = false;

  constructor() {
    super({ states: new Map(), run: null });
  }

  /**
   * A service action moved on: shown as under way (a deploy as deploying) until it ends, then its
   * outcome. Its `sent` heard once its run's results are in is that run's, late: dropped, or its row
   * would say under way under a summary that counts it done. (Every action the window asks for is a
   * run, which unsettles its keys first.)
   */
  serviceActionChanged({ panelId, projectName, serviceName, action, phase, message }: ServiceActionEvent): void {
    const key = serviceActionKey(panelId, projectName, serviceName);
    if (phase === 'sent' && this.#settled.has(key)) return;
    this.setStates([[key, { action, phase, message }]]);
  }

  /** Each service (by `serviceActionKey`) stands as said: one change for thousands (the results of a run). */
  setStates(states: Iterable<readonly [key: string, state: ServiceActionState]>): void {
    const next = new Map(this.getSnapshot().states);
    for (const [key, state] of states) next.set(key, state);
    this.update({ states: next });
  }

  /** Whether a run is under way, as far as this window knows. */
  running(): boolean {
    const { run } = this.getSnapshot();
    return run !== null && run.results === null;
  }

  /**
   * A run asked of main: each item waits its turn at once. It is the window's run unless one is
   * under way already (main will refuse it): the one under way stays in view, with its Cancel.
   */
  startRun(from: ServiceRunOrigin, action: ServiceAction, items: readonly ServiceActionItem[]): ServiceRun {
    const run: ServiceRun = { from, action, items, keys: items.map(keyOf), results: null, cancelling: false };
    const states = new Map(this.getSnapshot().states);
    for (const key of run.keys) {
      states.set(key, { action, phase: 'queued', message: null });
      this.#settled.delete(key);
    }
    this.update(this.running() ? { states } : { states, run });
    return run;
  }

  /**
   * The run ended (main's `serviceActionsEnded`, or the answer to the window's own `run`, whichever
   * comes first): each item stands as its result says, with what main had no step for (cancelled,
   * refused before sending). An answer that arrives late, once a newer run is the window's (the
   * event ended this one first), changes nothing; nor do results of other items. Main's end of a run
   * the window does not hold (it heard the end before main's answer about the run at its start)
   * still says how each item ended.
   */
  endRun(results: readonly ServiceActionItemResult[], answerTo?: ServiceRun): void {
    const { run } = this.getSnapshot();
    if (answerTo === undefined) this.#endHeard = true;
    const held = run !== null && run.results === null && (!answerTo || answerTo === run) && sameItems(run, results);
    if (!held && (answerTo !== undefined || run !== null)) return;
    for (const result of results) this.#settled.add(keyOf(result));
    const states = new Map([...this.getSnapshot().states, ...resultStates(results)]);
    this.update(held ? { states, run: { ...run, results } } : { states });
  }

  /** Main refused `run` whole: nothing was sent, its items say why, and it is no longer the window's run. */
  refuseRun(run: ServiceRun, message: string): void {
    const states = new Map(this.getSnapshot().states);
    for (const key of run.keys) states.set(key, { action: run.action, phase: 'cancelled', message });
    this.update(this.getSnapshot().run === run ? { states, run: null } : { states });
  }

  /** Cancel was asked of the run under way. */
  cancelling(): void {
    const { run } = this.getSnapshot();
    if (run && run.results === null && !run.cancelling) this.update({ run: { ...run, cancelling: true } });
  }

  /** The ended run's outcome was read: it is put away. */
  dismissRun(): void {
    if (!this.running()) this.update({ run: null });
  }

  /**
   * The run main holds, taken up at the window's start (a reload during a run): its items as far
   * as they went. Which view started it is not kept across a reload: a run on one panel's services
   * is that panel's, one across panels All services'.
   */
  adoptRun({ action, items, cancelling }: ServiceActionRun): void {
    // One started here since is newer than main's answer about the start of the window; so is a run's end heard since.
    if (this.running() || this.#endHeard) return;
    const panels = new Set(items.map((item) => item.panelId));
    const [only] = panels;
    const from: ServiceRunOrigin = panels.size === 1 && only !== undefined ? { panelId: only } : 'fleet';
    const run: ServiceRun = { from, action, items, keys: items.map(keyOf), results: null, cancelling };
    const states = new Map(this.getSnapshot().states);
    // The window listened before it asked: a step it heard meanwhile is newer than the answer.
    for (const [index, item] of items.entries()) {
      const key = run.keys[index]!;
      if (!states.has(key)) states.set(key, { action, phase: item.phase, message: item.message });
    }
    this.update({ states, run });
  }
}

/** Whether the results are those of the run's items, in its order. */
function sameItems(run: ServiceRun, results: readonly ServiceActionItemResult[]): boolean {
  return results.length === run.keys.length && results.every((result, index) => keyOf(result) === run.keys[index]);
}
