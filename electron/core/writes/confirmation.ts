import { PanelError } from '../../../shared/contract/errors.ts';
import type { WritePlan } from '../../../shared/write-plan.ts';

/**
 * Asks the operator about a plan in main's own confirmation (the app: electron/main/
 * write-confirmation.ts); true only for a yes to exactly that plan, its typed name included.
 */
export type ConfirmWrite = (plan: WritePlan) => Promise<boolean>;

export const CONFIRMATION_UNAVAILABLE =
  'Nothing was sent: Paneldeck asks for every write in a confirmation of its own, and could not ask here.';
export const NOT_CONFIRMED_MESSAGE = 'Nothing was sent: the write was not confirmed.';

/** Resolves once the operator confirmed `plan`; NOT_CONFIRMED when they did not, or when nothing can ask. */
export async function askToConfirm(confirmWrite: ConfirmWrite | undefined, plan: WritePlan): Promise<void> {
  if (!confirmWrite) throw new PanelError('NOT_CONFIRMED', CONFIRMATION_UNAVAILABLE);
  let confirmed: boolean;
  try {
    confirmed = await confirmWrite(plan);
  } catch {
    // A confirmation that broke (its window could not open) is not a yes.
    confirmed = false;
  }
  if (confirmed !== true) throw new PanelError('NOT_CONFIRMED', NOT_CONFIRMED_MESSAGE);
}
