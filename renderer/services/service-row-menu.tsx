import type { ServiceAction } from '../../shared/service-actions.ts';
import type { ServiceSummary } from '../../shared/services.ts';
import { oneServiceItems, planEveryAction, severalServicesItems } from './service-action-plan.ts';
import type { ServiceActionState } from '../window/service-action-store.ts';
import { RowMenu } from '../ui/row-menu.tsx';

interface ServiceRowMenuProps<T extends ServiceSummary> {
  /** The services it acts on: the row's, or the selection the row is in. */
  services: readonly T[];
  /** Names the menu: the service, or "5 services". */
  label: string;
  at: { x: number; y: number };
  stateOf(service: T): ServiceActionState | undefined;
  onAsk(services: readonly T[], action: ServiceAction): void;
  onClose(): void;
}

/** A service row's menu (a panel's tab or the fleet's view): the actions its type has, or each action with how many of a selection it reaches. */
export function ServiceRowMenu<T extends ServiceSummary>({ services, label, at, stateOf, onAsk, onClose }: ServiceRowMenuProps<T>) {
  const items =
    services.length > 1 ? severalServicesItems(planEveryAction(services, stateOf)) : oneServiceItems(services[0]!, stateOf(services[0]!));
  return (
    <RowMenu
      at={at}
      label={label}
      items={items.map((item) => ({ ...item, command: item.action ?? ('none' as const) }))}
      onRun={(command) => command !== 'none' && onAsk(services, command)}
      onClose={onClose}
    />
  );
}
