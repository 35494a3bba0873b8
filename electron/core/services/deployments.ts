import { LISTED_DEPLOYMENTS, type DeploymentList, type DeploymentLog } from '../../../shared/deployments.ts';
import { isRecord } from '../../../shared/guards.ts';
import { readBuildLog, readDeployments, readStatus } from '../easypanel/deployment-answers.ts';
import { callPanel, MissingRouteError } from '../easypanel/panel-calls.ts';
import { PanelError } from '../../../shared/contract/errors.ts';
import { secretMatcher } from '../secrets/secret-match.ts';
import type { RequestSettings } from '../easypanel/panel-endpoints.ts';
import type { CoreMethods } from '../context/core-context.ts';
import { type TokenCalls, withToken } from '../sign-in/with-token.ts';

/** What the deployments' reads use: the calls with the panel's token, the requests' settings, the clock. */
export interface DeploymentParts extends TokenCalls {
  request: RequestSettings;
  now(): Date;
}

/**
 * A service's deployments (the panel's actions history) and the build log of one, read in main
 * with the panel's token through the request table (`listActions`, `getAction`: reads, retried
 * once). The answers are read in `http/deployment-answers.ts`; a log is cut to its end there.
 */
export function deploymentMethods(parts: DeploymentParts): CoreMethods<'listDeployments' | 'getDeploymentLog'> {
  const { request, now } = parts;
  return {
    async listDeployments(panelId, { projectName, serviceName }) {
      return withToken(parts, panelId, async ({ record, token }): Promise<DeploymentList> => {
        const answer = await callPanel(request, record, token, 'listActions', { projectName, serviceName, limit: LISTED_DEPLOYMENTS });
        return { panelId, projectName, serviceName, readAt: now().toISOString(), ...readDeployments(answer, secretMatcher([token])) };
      });
    },

    async getDeploymentLog(panelId, deploymentId) {
      return withToken(parts, panelId, async ({ record, token }): Promise<DeploymentLog> => {
        const answer = await callPanel(request, record, token, 'getAction', { id: deploymentId }).catch((error: unknown) => {
          throw error instanceof MissingRouteError ? notFound(deploymentId, error) : error;
        });
        const action = isRecord(answer) ? answer : {};
        return {
          panelId,
          deploymentId,
          readAt: now().toISOString(),
          status: readStatus(action.status),
          ...readBuildLog(action.log, secretMatcher([token])),
        };
      });
    },
  };
}

/**
 * A 404 to a log read: the route is there (the list that named the deployment came by the same
 * generation), so the panel knows no such deployment; its own words say so when it sent some.
 */
function notFound(deploymentId: string, error: MissingRouteError): PanelError {
  const said = error.panelWords ? ` The panel said: "${error.panelWords}".` : '';
  return new PanelError('NOT_FOUND', `The panel has no deployment ${deploymentId}: it may have been removed.${said}`);
}
