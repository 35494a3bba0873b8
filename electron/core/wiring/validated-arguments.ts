import { parseArguments } from '../../../shared/contract/contract.ts';
import { methodNames } from '../../../shared/contract/methods.ts';
import { ARGUMENTS_VALIDATED, type Core, type CoreMethods } from '../context/core-context.ts';

/**
 * The core as its callers see it: every method of the contract validates its arguments against the
 * contract's schemas (`argumentSchemas`) before the feature module's method runs, once, whoever
 * calls (the IPC registrar, a script, a test); anything that does not fit is INVALID_INPUT naming
 * the field, and nothing runs. The feature modules then take parsed, typed arguments. The methods
 * for main alone (`flush`, `sessionEnding`, ...) have no schema and pass as they are. The core says
 * so (`ARGUMENTS_VALIDATED`), so that the registrar does not parse a second time.
 */
export function validatingArguments(methods: CoreMethods<Exclude<keyof Core, typeof ARGUMENTS_VALIDATED>>): Core {
  const checked: Record<string, unknown> = { ...methods };
  for (const method of methodNames) {
    const run = methods[method] as (...args: unknown[]) => Promise<unknown>;
    // Async: an argument refused is a rejected call, never a throw at the caller.
    checked[method] = async (...args: unknown[]) => run(...(parseArguments(method, args) as unknown[]));
  }
  return Object.assign(checked, { [ARGUMENTS_VALIDATED]: true as const }) as unknown as Core;
}
