import type { ServiceRef } from '../../shared/service-logs.ts';
import { SnapshotStore } from './snapshot-store.ts';

export interface ServicePickSnapshot {
  /** The service each panel's Deployments and Logs tabs show, by panel id: the last one chosen there or from a service row. */
  readonly picks: ReadonlyMap<string, ServiceRef>;
}

export const sameService = (a: ServiceRef | null | undefined, b: ServiceRef | null | undefined): boolean =>
  a?.projectName === b?.projectName && a?.serviceName === b?.serviceName;

/**
 * The service chosen in each panel's Deployments and Logs tabs, kept while the window is open: going
 * back to a tab, or to the other of the two, shows the same service without typing it again.
 */
export class ServicePickStore extends SnapshotStore<ServicePickSnapshot> {
  constructor() {
    super({ picks: new Map() });
  }

  choose(panelId: string, service: ServiceRef): void {
    const { picks } = this.getSnapshot();
    if (sameService(picks.get(panelId), service)) return;
    this.update({ picks: new Map(picks).set(panelId, { projectName: service.projectName, serviceName: service.serviceName }) });
  }

  /** A panel removed: its choice goes with it. */
  forget(panelId: string): void {
    const { picks } = this.getSnapshot();
    if (!picks.has(panelId)) return;
    const kept = new Map(picks);
    kept.delete(panelId);
    this.update({ picks: kept });
  }
}
