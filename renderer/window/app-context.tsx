import type { ServiceRef } from '../../shared/service-logs.ts';
import { createContext, use, useEffect, useMemo, useRef, useState, useSyncExternalStore, type ReactNode } from 'react';
import type { PanelBridge } from '../../shared/contract/bridge.ts';
import type { CommandId } from '../../shared/contract/commands.ts';
import type { PanelServices } from '../../shared/fleet-services.ts';
import type { PanelHealth } from '../../shared/fleet-state.ts';
import type { Panel } from '../../shared/types.ts';
import { CommandRegistry, type CommandHandler } from './command-registry.ts';
import { connectWindow } from './event-router.ts';
import { FleetServicesStore, HealthStore } from './health-store.ts';
import { createPanelReads, forgetSignedOut, type PanelReads } from './panel-reads.ts';
import { PanelStore, type PanelSnapshot } from './panel-store.ts';
import { useClock, WindowClock } from './use-now.ts';
import type { DialogSnapshot } from './dialog-store.ts';
import type { PanelListChoicesSnapshot } from './panel-list-choices-store.ts';
import type { LocationSnapshot } from './location-store.ts';
import type { RevisionSnapshot } from './revision-store.ts';
import type { ServiceActionSnapshot } from './service-action-store.ts';
import type { StatusSnapshot } from './status-store.ts';
import type { SessionMemory } from './window-memory.ts';
import { createWindowStores, type WindowStores } from './window-stores.ts';

/** What every part of the window reaches without props: main's API, the stores, the commands. */
export interface WindowContext extends WindowStores {
  api: PanelBridge;
  panelStore: PanelStore;
  commands: CommandRegistry;
  /** The one clock of every countdown and "ago" text in the window. */
  clock: WindowClock;
  /** What was read of each panel through main (services, server load), for its tabs. */
  reads: PanelReads;
  /** Each panel's state as the last check read it, for the table layout. */
  healthStore: HealthStore;
  /** Each signed-in panel's services as main last read them, for the fleet's Services view. */
  fleetServicesStore: FleetServicesStore;
}

const Context = createContext<WindowContext | null>(null);

/** Whether a modal <dialog> is open: the page's shortcuts and main's menu commands wait while one is. */
export function modalOpen(): boolean {
  return document.querySelector('dialog[open]') !== null;
}

/** The page's sessionStorage, or null where the page has none it may use (an opaque origin throws). */
function pageSessionMemory(): SessionMemory | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

/** One window's stores and commands, connected to main while mounted. */
export function WindowProvider({ api, children }: { api: PanelBridge; children: ReactNode }) {
  const [context] = useState<WindowContext>(() => {
    const panelStore = new PanelStore();
    const clock = new WindowClock();
    // Subscribed before any component: a change of the panels (a check just ended) reads the
    // time first, and the list renders once with both.
    panelStore.subscribe(clock.catchUp);
    const reads = createPanelReads(api);
    // A sign-in that ended (or a panel removed) takes what was read with it.
    panelStore.subscribe(() => forgetSignedOut(reads, (id) => panelStore.getSnapshot().byId.get(id)?.signedIn === true));
    const healthStore = new HealthStore();
    return {
      api,
      panelStore,
      ...createWindowStores(pageSessionMemory()),
      commands: new CommandRegistry(),
      clock,
      reads,
      healthStore,
      fleetServicesStore: new FleetServicesStore(),
    };
  });
  useEffect(() => connectWindow(context.api, { ...context, modalOpen }), [context]);
  return <Context value={context}>{children}</Context>;
}

export function useWindowContext(): WindowContext {
  const context = use(Context);
  if (!context) throw new Error('A part of the window was rendered outside WindowProvider.');
  return context;
}

/** Main's API (the preload bridge). */
export function useApi(): PanelBridge {
  return useWindowContext().api;
}

/** Main's panels as the window knows them; renders again when they change. */
export function usePanels(): PanelSnapshot {
  const { panelStore } = useWindowContext();
  return useSyncExternalStore(panelStore.subscribe, panelStore.getSnapshot);
}

/** Each panel's state as the last check read it; renders again when a check reads some. */
export function useHealth(): ReadonlyMap<string, PanelHealth> {
  const { healthStore } = useWindowContext();
  return useSyncExternalStore(healthStore.subscribe, healthStore.getSnapshot);
}

/** Each signed-in panel's services as main last read them; renders again when a check reads some. */
export function useFleetServices(): ReadonlyMap<string, PanelServices> {
  const { fleetServicesStore } = useWindowContext();
  return useSyncExternalStore(fleetServicesStore.subscribe, fleetServicesStore.getSnapshot);
}

/** The time now, from the window's one clock: every relative time on screen is measured against the same instant. */
export function useNow(): number {
  return useClock(useWindowContext().clock);
}

/** The view shown and the list's selection; renders again when they change. */
export function useLocation(): LocationSnapshot {
  const { locationStore } = useWindowContext();
  return useSyncExternalStore(locationStore.subscribe, locationStore.getSnapshot);
}

/** How the list looks; renders again when it changes. */
export function usePanelListChoices(): PanelListChoicesSnapshot {
  const { panelListChoicesStore } = useWindowContext();
  return useSyncExternalStore(panelListChoicesStore.subscribe, panelListChoicesStore.getSnapshot);
}

/** Main's status and the window's notices; renders again when they change. */
export function useStatus(): StatusSnapshot {
  const { statusStore } = useWindowContext();
  return useSyncExternalStore(statusStore.subscribe, statusStore.getSnapshot);
}

/** The dialog open over the window; renders again when another opens or it closes. */
export function useDialog(): DialogSnapshot {
  const { dialogStore } = useWindowContext();
  return useSyncExternalStore(dialogStore.subscribe, dialogStore.getSnapshot);
}

/** The service this panel's Deployments and Logs tabs show, if one was chosen; renders again when another is. */
export function useServicePick(panelId: string): ServiceRef | null {
  const { servicePickStore } = useWindowContext();
  return useSyncExternalStore(servicePickStore.subscribe, servicePickStore.getSnapshot).picks.get(panelId) ?? null;
}

/** How each service's last action stands; renders again when one moves on. */
export function useServiceActions(): ServiceActionSnapshot {
  const { serviceActionStore } = useWindowContext();
  return useSyncExternalStore(serviceActionStore.subscribe, serviceActionStore.getSnapshot);
}

/** When main's activity log and alerts last changed; renders again when they do. */
export function useRevisions(): RevisionSnapshot {
  const { revisionStore } = useWindowContext();
  return useSyncExternalStore(revisionStore.subscribe, revisionStore.getSnapshot);
}

/** What the window's actions report back: panels main returned, or removed. */
export function usePanelChanges(): { changed(panels: readonly Panel[]): void; removed(ids: readonly string[]): void } {
  const { panelStore, locationStore } = useWindowContext();
  return useMemo(
    () => ({
      changed: (changed) => {
        for (const panel of changed) panelStore.upsert(panel);
      },
      removed: (ids) => {
        for (const id of ids) panelStore.remove(id);
        // The view that had the focus went with them: the list takes it (see Workspace).
        locationStore.removedHere();
      },
    }),
    [panelStore, locationStore],
  );
}

/**
 * Registers the commands this part of the window carries out, while it is mounted. The handlers
 * may change on every render: the newest ones run.
 */
export function useCommandHandlers(handlers: Partial<Record<CommandId, CommandHandler>>): void {
  const { commands } = useWindowContext();
  const latest = useRef(handlers);
  latest.current = handlers;
  const ids = Object.keys(handlers).sort().join(' ');
  useEffect(() => {
    const wrapped = Object.fromEntries(
      ids
        .split(' ')
        .filter(Boolean)
        .map((id) => [id, () => latest.current[id as CommandId]?.()] as const),
    ) as Partial<Record<CommandId, CommandHandler>>;
    return commands.registerAll(wrapped);
  }, [commands, ids]);
}
