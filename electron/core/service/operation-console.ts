import { parseArguments } from '../../../shared/contract.ts';
import { PanelError } from '../../../shared/errors.ts';
import type { ServiceContext, ServiceMethods } from './service-context.ts';

type ConsoleMethod = 'getOperations' | 'callOperation' | 'callOperationOnPanels' | 'cancelOperationRun';

const NOT_YET = 'The API console is not built yet.';

/** The API console (issue 25): a stand-in that checks its arguments, until the catalogue and calls are built. */
export function operationConsoleMethods(_context: ServiceContext): ServiceMethods<ConsoleMethod> {
  return {
    async getOperations(id) {
      parseArguments('getOperations', [id]);
      throw new PanelError('INTERNAL', NOT_YET);
    },
    async callOperation(id, call) {
      parseArguments('callOperation', [id, call]);
      throw new PanelError('INTERNAL', NOT_YET);
    },
    async callOperationOnPanels(ids, call, options) {
      parseArguments('callOperationOnPanels', [ids, call, options]);
      throw new PanelError('INTERNAL', NOT_YET);
    },
    async cancelOperationRun() {
      parseArguments('cancelOperationRun', []);
    },
  };
}
