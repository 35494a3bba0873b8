import type { ServiceAction } from '../../shared/service-actions.ts';
import type { ServiceSummary } from '../../shared/services.ts';
import { oneServiceItems, planEveryAction, type ReadOnlyOf, severalServicesItems } from './service-action-plan.ts';
import type { ServiceActionState } from '../window/service-action-store.ts';
import { type MenuEntry, RowMenu } from '../ui/row-menu.tsx';
import { actionsOfType } from '../../shared/service-actions.ts';
import { useWindowContext } from '../window/app-context.tsx';

interface ServiceRowMenuProps<T extends ServiceSummary> {
  /** The services it acts on: the row's, or the selection the row is in. */
  services: readonly T[];
  /** Names the menu: the service, or "5 services". */
  label: string;
  at: { x: number; y: number };
  stateOf(service: T): ServiceActionState | undefined;
  /** A service on a read-only panel is offered no action. */
  readOnlyOf?: ReadOnlyOf<T>;
  onAsk(services: readonly T[], action: ServiceAction): void;
  /** One service's Deployments or Logs tab, with the service chosen there. */
  onOpenTab(service: T, tab: ServiceTab): void;
  onClose(): void;
}

/** The tabs of a panel that show one service. */
export type ServiceTab = 'deployments' | 'logs';
type Command = ServiceAction | ServiceTab | 'none';

/** The panel shown at a service's Deployments or Logs tab, the service chosen there (and remembered). */
export function useOpenServiceTab(): (panelId: string, service: ServiceSummary, tab: ServiceTab) => void {
  const { servicePickStore, locationStore } = useWindowContext();
  return (panelId, service, tab) => {
    servicePickStore.choose(panelId, { projectName: service.projectName, serviceName: service.name });
    locationStore.showPanelAt(panelId, tab);
  };
}

/**
 * A service row's menu (a panel's tab or the fleet's view): the actions its type has, then its
 * Deployments and Logs; or, for a selection, each action with how many of it it reaches.
 */
export function ServiceRowMenu<T extends ServiceSummary>({
  services,
  label,
  at,
  stateOf,
  readOnlyOf,
  onAsk,
  onOpenTab,
  onClose,
}: ServiceRowMenuProps<T>) {
  const one = services.length === 1 ? services[0]! : null;
  const items: MenuEntry<Command>[] = (
    one ? oneServiceItems(one, stateOf(one), readOnlyOf?.(one)) : severalServicesItems(planEveryAction(services, stateOf, readOnlyOf))
  ).map((item) => ({ ...item, command: item.action ?? 'none' }));
  if (one) {
    // Deployments are an app's (the services Paneldeck deploys); every service has a log.
    if (actionsOfType(one.type).includes('deploy')) items.push({ command: 'deployments', label: 'Deployments', separated: true });
    items.push({ command: 'logs', label: 'Logs', separated: !actionsOfType(one.type).includes('deploy') });
  }
  const run = (command: Command) => {
    if (command === 'none') return;
    if (command === 'deployments' || command === 'logs') {
      if (one) onOpenTab(one, command);
      return;
    }
    onAsk(services, command);
  };
  return <RowMenu at={at} label={label} items={items} onRun={run} onClose={onClose} />;
}
