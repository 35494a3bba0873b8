import { randomUUID } from 'node:crypto';
import { settle } from '../../../shared/contract/envelope.ts';
import { plural } from '../../../shared/counts.ts';
import { type UpgradeOptions, upgradeWaves } from '../../../shared/upgrades.ts';
import type { PlanLeftOut, WritePlan } from '../../../shared/write-plan.ts';
import { callPanel, pinnedReleaseTagOf, updateAvailableOf, versionOf } from '../easypanel/panel-calls.ts';
import type { RequestSettings } from '../easypanel/panel-endpoints.ts';
import { REQUESTS, routesOf } from '../easypanel/panel-requests.ts';
import { PanelError } from '../../../shared/contract/errors.ts';
import { stillHeld, type TokenCalls, withToken } from '../sign-in/with-token.ts';
import type { PanelRecord } from '../storage/panel-registry.ts';
import { type PlannedSignIn, plannedSignIn, readOnlyReason } from '../writes/held-sign-in.ts';
import { plannedPanel, requestLine, writePlan } from '../writes/write-plans.ts';

/**
 * The plan of an upgrade run: each panel's version read afresh with its token (getUpdateStatus,
 * which also says whether a newer Easypanel is out and whether the panel is pinned to a release
 * tag), then one plan of every panel's update in its wave, and of what is left out and why.
 */

/** A panel of the run as planned: the update it will get, under the sign-in it was read with. */
export interface PlannedUpgrade {
  panelId: string;
  record: PanelRecord;
  signIn: PlannedSignIn;
  versionBefore: string | null;
  route: string;
}

/** A panel as read for the plan: planned, or left out with why (nothing will be sent to it). */
export type UpgradeCandidate =
  | { panelId: string; planned: PlannedUpgrade }
  | { panelId: string; panelName: string; versionBefore: string | null; leftOut: string };

/** The panel's version read for the plan, and whether it is worth an update; never throws. */
export async function readForPlan(
  parts: TokenCalls & { request: RequestSettings },
  panelId: string,
  signal: AbortSignal,
  nameOf: (panelId: string) => string,
): Promise<UpgradeCandidate> {
  // Read-only: left out before anything is read for it.
  const listed = (await parts.state()).registry.get(panelId);
  if (listed?.readOnly) return { panelId, panelName: listed.name, versionBefore: null, leftOut: readOnlyReason(listed.name) };
  const read = await settle(() =>
    withToken(
      parts,
      panelId,
      async (held, whileSignedIn) => {
        const answer = await callPanel(parts.request, held.record, held.token, 'getVersion', undefined, {
          signal: whileSignedIn,
          beforeSend: stillHeld(held),
        });
        return { held, answer };
      },
      signal,
    ),
  );
  if (!read.ok) {
    const why =
      read.error.code === 'NOT_SIGNED_IN' ? 'not signed in: log in first' : `its version could not be read (${read.error.message})`;
    return { panelId, panelName: nameOf(panelId), versionBefore: null, leftOut: why };
  }
  const { held, answer } = read.value;
  const { record } = held;
  const versionBefore = versionOf(answer);
  const leftOut = (why: string): UpgradeCandidate => ({ panelId, panelName: record.name, versionBefore, leftOut: why });
  const pinned = pinnedReleaseTagOf(answer);
  if (pinned !== null) {
    return leftOut(
      `pinned to the release tag ${pinned}: an update would run that tag again. Change RELEASE_TAG in Easypanel's own service to upgrade it.`,
    );
  }
  if (updateAvailableOf(answer) === false) {
    return leftOut(`already on the newest Easypanel${versionBefore === null ? '' : ` (${versionBefore})`}, as the panel says.`);
  }
  const route = routesOf(REQUESTS.updatePanel, record.generation)[0];
  if (route === undefined) return leftOut("this panel's Easypanel has no update route Paneldeck knows.");
  let signIn: PlannedSignIn;
  try {
    signIn = plannedSignIn(held.state, record);
  } catch (error) {
    // Its account for writes is signed out: said like any other reason it is left out.
    return leftOut(error instanceof PanelError ? error.message : 'Paneldeck could not plan it.');
  }
  return { panelId, planned: { panelId, record, signIn, versionBefore, route } };
}

/** The plan as main's confirmation shows it: every panel with its version now and its wave, and what is left out. */
export function upgradePlan(
  candidates: readonly UpgradeCandidate[],
  options: UpgradeOptions,
  deadlineMinutes: number,
): { plan: WritePlan; waves: PlannedUpgrade[][] } {
  const planned = candidates.flatMap((one) => ('planned' in one ? [one.planned] : []));
  const waves = upgradeWaves(planned, options);
  const canaryWave = options.canary > 0 && planned.length > 0;
  const waveName = (index: number) => (canaryWave && index === 0 ? 'first, alone' : `wave ${canaryWave ? index : index + 1}`);
  const panels = waves.flatMap((wave, index) =>
    wave.map(({ record, versionBefore, route }) =>
      plannedPanel(record, [
        {
          label: `update Easypanel from ${versionBefore ?? 'a version it does not name'} (${waveName(index)})`,
          request: requestLine('POST', route),
        },
      ]),
    ),
  );
  const leftOut: PlanLeftOut[] = candidates.flatMap((one) =>
    'leftOut' in one ? [{ panelName: one.panelName, label: 'update Easypanel', why: one.leftOut }] : [],
  );
  const count = planned.length;
  const only = count === 1 ? planned[0]!.record.name : null;
  const cut =
    count <= 1
      ? ''
      : ` ${canaryWave ? `${firstAlone(Math.min(options.canary, count))}, then` : 'In'} waves of at most ${options.waveSize}.`;
  const plan = writePlan({
    id: randomUUID(),
    title: `Upgrade Easypanel on ${only ?? plural(count, 'panel')}`,
    detail:
      `Each panel restarts while it updates: its dashboard and API are away for a while.${cut} ` +
      `Paneldeck waits for each panel to answer again on a new version (up to ${plural(deadlineMinutes, 'minute')}) before the next wave, ` +
      'and stops at the first failure or at a panel not back in time. A panel whose update was sent and that is not back has an unknown outcome: look at it.',
    confirmLabel: 'Upgrade',
    panels,
    leftOut,
    several: `upgrade ${plural(count, 'panel')}`,
  });
  return { plan, waves };
}

/** "The first panel alone", "The first 3 panels alone". */
const firstAlone = (canary: number) => (canary === 1 ? 'The first panel alone' : `The first ${canary} panels alone`);
