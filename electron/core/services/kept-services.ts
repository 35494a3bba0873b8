import type { PanelError } from '../../../shared/contract/errors.ts';
import type { FleetServiceSummary, PanelServices } from '../../../shared/fleet-services.ts';
import { HEALTH_PROBLEM_MAX } from '../../../shared/fleet-state.ts';
import type { PanelEvent } from '../../../shared/contract/events.ts';
import type { ServiceSummary } from '../../../shared/services.ts';
import { ChangeBatcher } from '../context/change-batchers.ts';

/** What a read of a panel's services found: the services, and whether the panel listed more. */
export interface ServicesRead {
  readAt: string;
  services: readonly ServiceSummary[];
  truncated: boolean;
}

/**
 * Each signed-in panel's services as main last read them (a check's state read, a panel's
 * `listServices`), in memory only: the fleet's Services view (`getFleetServices`). Nothing here
 * makes a request. Changes reach the window batched, as `fleetServicesChanged`; a panel whose
 * sign-in ended (removed, signed out, moved) is `gone`.
 */
export class KeptServices {
  readonly #byPanel = new Map<string, PanelServices>();
  readonly #changes: ChangeBatcher;

  constructor(emit: (event: PanelEvent) => void, delayMs?: number) {
    this.#changes = new ChangeBatcher((ids, gone) => {
      const panels = ids.flatMap((id) => this.#byPanel.get(id) ?? []);
      if (panels.length > 0 || gone.length > 0) emit({ type: 'fleetServicesChanged', panels, gone });
    }, delayMs);
  }

  /** The services read anew; CPU and memory per service are null: no generation's task stats carry them. */
  read(panelId: string, { readAt, services, truncated }: ServicesRead): void {
    const summaries = services.map(
      ({ projectName, name, type, state, replicas }): FleetServiceSummary => ({
        projectName,
        name,
        type,
        state,
        replicas,
        cpuPercent: null,
        memoryMb: null,
      }),
    );
    this.#byPanel.set(panelId, { panelId, readAt, services: summaries, truncated, problem: null });
    this.#changes.changed(panelId);
  }

  /** A read of them failed: the older ones are kept (or none, read at `at`), and say why. */
  failed(panelId: string, at: string, failure: PanelError): void {
    const older = this.#byPanel.get(panelId);
    const problem = { at, code: failure.code, message: failure.message.slice(0, HEALTH_PROBLEM_MAX) };
    this.#byPanel.set(panelId, older ? { ...older, problem } : { panelId, readAt: at, services: [], truncated: false, problem });
    this.#changes.changed(panelId);
  }

  /** The panel's sign-in ended, or it was removed or moved: its services are no longer shown. */
  gone(panelId: string): void {
    if (this.#byPanel.delete(panelId)) this.#changes.removed(panelId);
  }

  /** The kept services of `panelIds` that have any, in that order. */
  list(panelIds: Iterable<string>): PanelServices[] {
    const kept: PanelServices[] = [];
    for (const panelId of panelIds) {
      const panel = this.#byPanel.get(panelId);
      if (panel) kept.push(panel);
    }
    return kept;
  }

  /** Sends what is waiting now (at quit). */
  flush(): void {
    this.#changes.flush();
  }
}
