import { parseArguments } from '../../../shared/contract.ts';
import { PanelError } from '../../../shared/errors.ts';
import type { ServiceContext, ServiceMethods } from './service-context.ts';

const NOT_BUILT = 'The fleet Services view is not built in main yet on this branch.';

/** The fleet's services and actions across panels (issue 24, item 3): the contract first, main's side follows. */
export function fleetServiceMethods(
  _context: ServiceContext,
): ServiceMethods<'getFleetServices' | 'runServiceActions' | 'cancelServiceActions'> {
  return {
    async getFleetServices() {
      parseArguments('getFleetServices', []);
      throw new PanelError('INTERNAL', NOT_BUILT);
    },
    async runServiceActions(items, action) {
      parseArguments('runServiceActions', [items, action]);
      throw new PanelError('INTERNAL', NOT_BUILT);
    },
    async cancelServiceActions() {
      parseArguments('cancelServiceActions', []);
    },
  };
}
