import type { PanelEvent } from '../../shared/contract/events.ts';
import type { ServiceAction, ServiceActionPhase } from '../../shared/service-actions.ts';
import { SnapshotStore } from './snapshot-store.ts';

type ServiceActionEvent = Extract<PanelEvent, { type: 'serviceActionChanged' }>;

/** A service action as the window last heard of it. */
export interface ServiceActionState {
  action: ServiceAction;
  /**
   * Main's phase, or the window's own words: `queued`, chosen with others and waiting for its turn;
   * `cancelled`, never sent because Cancel came first.
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

export interface ServiceActionSnapshot {
  /** Each service's last action in this window (main's `serviceActionChanged`), by `serviceActionKey`. */
  readonly states: ReadonlyMap<string, ServiceActionState>;
}

/** How each service's last action stands, for the rows of the Services tab and of All services. */
export class ServiceActionStore extends SnapshotStore<ServiceActionSnapshot> {
  constructor() {
    super({ states: new Map() });
  }

  /** A service action moved on: shown as under way (a deploy as deploying) until it ends, then its outcome. */
  serviceActionChanged({ panelId, projectName, serviceName, action, phase, message }: ServiceActionEvent): void {
    this.setStates([[serviceActionKey(panelId, projectName, serviceName), { action, phase, message }]]);
  }

  /** Each service (by `serviceActionKey`) stands as said: one change for thousands (the results of a run). */
  setStates(states: Iterable<readonly [key: string, state: ServiceActionState]>): void {
    const next = new Map(this.getSnapshot().states);
    for (const [key, state] of states) next.set(key, state);
    this.update({ states: next });
  }
}
