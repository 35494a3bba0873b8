import { parseArguments } from '../../../shared/contract.ts';
import { PanelError } from '../../../shared/errors.ts';
import { SERVICE_LOG_LINES } from '../../../shared/service-logs.ts';
import { readBacklog } from '../http/service-log-socket.ts';
import type { PanelRecord } from '../storage/panel-registry.ts';
import { LogFollows } from './log-follows.ts';
import type { ServiceContext, ServiceMethods } from './service-context.ts';
import type { ServiceState } from './service-state.ts';
import { find } from './session-reader.ts';

/** The largest backlog read: 10,000 lines of 800 bytes. A larger one is refused unread (RESPONSE_TOO_LARGE). */
export const MAX_BACKLOG_BYTES = 8 * 1024 * 1024;

/** The panel and its token now, or NOT_SIGNED_IN: the token stays here, in main. */
function signedIn(current: ServiceState, panelId: string): { record: PanelRecord; token: string } {
  const record = find(current, panelId);
  const token = current.vault.token(panelId, record.baseUrl);
  if (!token) throw new PanelError('NOT_SIGNED_IN', `You are not signed in to ${record.name}. Log in to read its logs.`);
  return { record, token };
}

export type ServiceLogMethods = ServiceMethods<'readServiceLogs' | 'followServiceLogs' | 'stopFollowingServiceLogs'> & {
  /** Ends every follow: main calls it when the window closes or reloads (it no longer listens). */
  stopAllLogFollows(): void;
};

/** Runtime logs: the last lines, and live follows (log-follows.ts). */
export function serviceLogMethods({ state, request, now, emit }: ServiceContext, follows = new LogFollows(emit)): ServiceLogMethods {
  return {
    async readServiceLogs(panelId, input) {
      const [id, { projectName, serviceName, lines = SERVICE_LOG_LINES.default }] = parseArguments('readServiceLogs', [panelId, input]);
      const { record, token } = signedIn(await state(), id);
      const read = await readBacklog(
        record,
        token,
        { projectName, serviceName },
        {
          lines,
          deadlineMs: request.timeoutMs,
          maxBytes: MAX_BACKLOG_BYTES,
        },
      );
      return { panelId: id, projectName, serviceName, readAt: now().toISOString(), ...read };
    },

    async followServiceLogs(panelId, service) {
      const [id, { projectName, serviceName }] = parseArguments('followServiceLogs', [panelId, service]);
      const current = await state();
      const { record, token } = signedIn(current, id);
      // The sign-in it was opened with: a log out, an expiry or a new token ends it.
      const stillSignedIn = () => {
        const latest = current.registry.get(id);
        return latest !== undefined && current.vault.token(id, latest.baseUrl) === token;
      };
      return follows.start(id, record, token, { projectName, serviceName }, stillSignedIn);
    },

    async stopFollowingServiceLogs(followId) {
      const [id] = parseArguments('stopFollowingServiceLogs', [followId]);
      follows.stop(id);
    },

    stopAllLogFollows: () => follows.stopAll(),
  };
}
