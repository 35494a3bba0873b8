import { randomUUID } from 'node:crypto';
import { plural } from '../../../shared/counts.ts';
import type { WritePlan } from '../../../shared/write-plan.ts';
import { REQUESTS, routesOf } from '../easypanel/panel-requests.ts';
import type { PanelRecord } from '../storage/panel-registry.ts';
import { askToConfirm, type ConfirmWrite } from './confirmation.ts';
import { plannedPanel, requestLine, writePlan } from './write-plans.ts';

const LOG_OUT_DETAIL =
  'Paneldeck forgets the sign-in here first, then asks the panel to end its session. To use the panel again, you log in to it.';

/**
 * The plan of a log out that ends these panels' sign-ins, or null when none of them is a
 * production panel: a log out asks in main's confirmation, its name typed, only where every other
 * write to a red panel does (issue 35). A panel signed in with an API token is in it too: nothing
 * is sent to it (the token stays valid at the panel), but Paneldeck's access to it ends.
 */
export function logOutPlan(records: readonly PanelRecord[]): WritePlan | null {
  if (!records.some((record) => record.colour === 'red')) return null;
  const panels = records.map((record) =>
    plannedPanel(
      record,
      record.tokenKind === 'api-token'
        ? [{ label: 'forget the API token here (it stays valid at the panel)', request: 'nothing is sent' }]
        : routesOf(REQUESTS.logOut, record.generation).map((route) => ({ label: 'end the session', request: requestLine('POST', route) })),
    ),
  );
  const several = `log out of ${plural(records.length, 'panel')}`;
  return writePlan({
    id: randomUUID(),
    title: records.length === 1 ? `Log out of ${records[0]!.name}` : `Log out of ${plural(records.length, 'panel')}`,
    detail: LOG_OUT_DETAIL,
    confirmLabel: 'Log out',
    panels,
    leftOut: [],
    several,
  });
}

/** Resolves when the log out of `records` may go ahead: at once without a red panel, else once confirmed (NOT_CONFIRMED when not). */
export async function confirmLogOut(confirmWrite: ConfirmWrite | undefined, records: readonly PanelRecord[]): Promise<void> {
  const plan = logOutPlan(records);
  if (plan) await askToConfirm(confirmWrite, plan);
}
