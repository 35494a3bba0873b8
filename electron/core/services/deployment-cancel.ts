import { randomUUID } from 'node:crypto';
import { PanelError } from '../../../shared/contract/errors.ts';
import type { DeploymentCancelResult } from '../../../shared/deployments.ts';
import { isRecord } from '../../../shared/guards.ts';
import { writeRecorder } from '../activity/activity-methods.ts';
import type { CoreMethods, Emit } from '../context/core-context.ts';
import { readStatus } from '../easypanel/deployment-answers.ts';
import { callPanel, MissingRouteError } from '../easypanel/panel-calls.ts';
import type { RequestSettings } from '../easypanel/panel-endpoints.ts';
import { REQUESTS, routesOf } from '../easypanel/panel-requests.ts';
import { type KnownCatalogue, refuseMissingFeature } from '../easypanel/panel-features.ts';
import { type SignedIn, stillHeld, type TokenCalls, withToken } from '../sign-in/with-token.ts';
import { askToConfirm, type ConfirmWrite } from '../writes/confirmation.ts';
import { checkAsPlanned, plannedSignIn, refuseReadOnly } from '../writes/held-sign-in.ts';
import { writeOutcome } from '../writes/write-outcomes.ts';
import { plannedPanel, requestLine, writePlan } from '../writes/write-plans.ts';

/** What cancelling a deployment uses: the requests' settings, the window's events (the activity log's too), main's confirmation. */
export interface DeploymentCancelParts extends TokenCalls {
  request: RequestSettings;
  emit: Emit;
  confirmWrite?: ConfirmWrite | undefined;
  /** The panel's own catalogue when read already: a panel without killAction is told so, with no request. */
  catalogues?: { known(held: SignedIn): { catalogue: KnownCatalogue } | null };
}

const CANCEL_DETAIL =
  'The build or deployment stops where it is; the service keeps the version it ran before. If an answer does not come, the outcome is unknown: look at the service\u2019s deployments.';

/**
 * Cancels a running deployment (`cancelDeployment`): main reads the action afresh (`getAction`) to
 * learn its service, that it still runs and that the panel lets it be killed (`noKill`), plans
 * `killAction {id}` and asks in its own confirmation; only a yes sends it, once, while the panel
 * is still signed in as planned, recorded in the activity log as `cancelDeploy`.
 */
export function deploymentCancelMethods(parts: DeploymentCancelParts): CoreMethods<'cancelDeployment'> {
  return {
    async cancelDeployment(panelId, deploymentId) {
      return withToken(parts, panelId, async (held, signal): Promise<DeploymentCancelResult> => {
        const { record, token, state } = held;
        // Read-only: refused before the deployment is even read.
        refuseReadOnly(record);
        // 'killAction' or 'actions.killAction' in the panel's own openapi.json (panel-features.ts).
        refuseMissingFeature(parts.catalogues?.known(held)?.catalogue ?? null, 'cancelDeploy');
        const answer = await callPanel(
          parts.request,
          record,
          token,
          'getAction',
          { id: deploymentId },
          { signal, beforeSend: stillHeld(held) },
        ).catch((error: unknown) => {
          throw error instanceof MissingRouteError
            ? new PanelError('NOT_FOUND', `The panel has no deployment ${deploymentId}: it may have been removed.`)
            : error;
        });
        const action = isRecord(answer) ? answer : {};
        if (action.noKill === true) {
          throw new PanelError('INVALID_INPUT', `Deployment ${deploymentId} on ${record.name} cannot be cancelled: the panel marks it so.`);
        }
        const status = readStatus(action.status);
        if (status !== 'running') {
          throw new PanelError(
            'INVALID_INPUT',
            `Deployment ${deploymentId} on ${record.name} is not running (${status}): there is nothing to cancel.`,
          );
        }
        const projectName = typeof action.projectName === 'string' ? action.projectName.slice(0, 64) : undefined;
        const serviceName = typeof action.serviceName === 'string' ? action.serviceName.slice(0, 64) : undefined;
        const service = projectName && serviceName ? `${projectName}/${serviceName}` : `deployment ${deploymentId}`;
        const route = routesOf(REQUESTS.killAction, record.generation)[0];
        if (route === undefined) {
          throw new PanelError('INVALID_INPUT', "This panel's Easypanel has no way to cancel a running action.");
        }
        const signIn = plannedSignIn(state, record);
        const plan = writePlan({
          id: randomUUID(),
          title: `Cancel the deployment of ${service} on ${record.name}`,
          detail: CANCEL_DETAIL,
          confirmLabel: 'Cancel deployment',
          panels: [plannedPanel(record, [{ label: `cancel deployment ${deploymentId}`, request: requestLine('POST', route) }])],
          leftOut: [],
          several: `cancel ${service}`,
        });
        await askToConfirm(parts.confirmWrite, plan);
        checkAsPlanned(state, signIn);
        const check = 'the deployment may have been cancelled: look at the service\u2019s deployments.';
        let sent = false;
        try {
          await writeRecorder(parts, state.activity)(
            record,
            { action: 'cancelDeploy', ...(projectName ? { projectName } : {}), ...(serviceName ? { serviceName } : {}) },
            () => {
              sent = true;
              return callPanel(
                parts.request,
                record,
                signIn.token,
                'killAction',
                { id: deploymentId },
                { generation: signIn.generation, beforeSend: () => checkAsPlanned(state, signIn) },
              );
            },
            { secrets: [token, signIn.token], judge: (error) => writeOutcome(error, check) },
          );
          return { panelId, deploymentId, outcome: 'done', message: null };
        } catch (error) {
          if (!sent) throw error;
          const { outcome, message } = writeOutcome(error, check);
          if (outcome === 'unknown') return { panelId, deploymentId, outcome: 'unknown', message };
          throw error instanceof PanelError && message !== null ? new PanelError(error.code, message, { cause: error }) : error;
        }
      });
    },
  };
}
