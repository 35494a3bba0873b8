import { PanelError } from '../../../shared/contract/errors.ts';
import { SERVICE_LOG_LINES, type ServiceRef } from '../../../shared/service-logs.ts';
import { MissingRouteError } from '../easypanel/panel-calls.ts';
import type { RequestSettings } from '../easypanel/panel-endpoints.ts';
import { type LogService, readBacklog } from '../easypanel/service-log-socket.ts';
import type { PanelRecord } from '../storage/panel-registry.ts';
import { LogFollows } from './log-follows.ts';
import type { CoreMethods, Emit } from '../context/core-context.ts';
import { readServiceType } from './service-reads.ts';
import { failedWithToken, type TokenCalls, withToken } from '../sign-in/with-token.ts';

/** What the runtime logs use: the calls with the panel's token, the requests' settings (and proxy), the clock, the window's events. */
export interface ServiceLogParts extends TokenCalls {
  request: RequestSettings;
  now(): Date;
  emit: Emit;
}

/** The largest backlog read: 10,000 lines of 800 bytes. A larger one is refused unread (RESPONSE_TOO_LARGE). */
export const MAX_BACKLOG_BYTES = 8 * 1024 * 1024;

export type ServiceLogMethods = CoreMethods<'readServiceLogs' | 'followServiceLogs' | 'stopFollowingServiceLogs'> & {
  /** Ends every follow: main calls it when the window closes or reloads (it no longer listens). */
  stopAllLogFollows(): void;
};

/**
 * The service as its log socket names it. A compose service's log is asked for with
 * `compose=true` (docs/easypanel-api.md), so main reads the service's type afresh from the panel, as a
 * write does: the window is not asked for it, and a service the panel does not have is NOT_FOUND
 * before any socket is opened. A panel that has no project list at all (a 404/405 on every route)
 * is asked with `compose=false`, as it was before the type was read.
 */
async function logService(request: RequestSettings, record: PanelRecord, token: string, service: ServiceRef): Promise<LogService> {
  let type: string;
  try {
    type = await readServiceType(request, record, token, service);
  } catch (error) {
    // A panel without a project list (not an Easypanel API Paneldeck knows) is asked as before: not compose.
    if (!(error instanceof MissingRouteError)) throw error;
    type = 'unknown';
  }
  return { projectName: service.projectName, serviceName: service.serviceName, compose: type === 'compose' };
}

/**
 * Runtime logs: the last lines, and live follows (log-follows.ts). A 401/403, whether to the type's
 * read or to the log socket's handshake, ends the panel's sign-in as a read's does (with-token.ts).
 */
export function serviceLogMethods(parts: ServiceLogParts, follows = new LogFollows(parts.emit)): ServiceLogMethods {
  const { request, now } = parts;
  return {
    async readServiceLogs(id, { projectName, serviceName, lines = SERVICE_LOG_LINES.default }) {
      return withToken(parts, id, async ({ record, token, state }) => {
        const service = await logService(request, record, token, { projectName, serviceName });
        const read = await readBacklog(record, token, service, {
          lines,
          deadlineMs: request.timeoutMs,
          maxBytes: MAX_BACKLOG_BYTES,
          resolveProxy: request.resolveProxy,
          // The token goes only in the socket's URL: made only while the sign-in it was read under lasts.
          beforeConnect: () => {
            const latest = state.registry.get(id);
            if (!latest || latest.baseUrl !== record.baseUrl || state.vault.token(id, latest.baseUrl) !== token)
              throw new PanelError('NOT_SIGNED_IN', 'The log was not opened: the sign-in it was asked under ended.');
          },
        });
        return { panelId: id, projectName, serviceName, readAt: now().toISOString(), ...read };
      });
    },

    async followServiceLogs(id, { projectName, serviceName }) {
      return withToken(parts, id, async (held) => {
        const { record, token, state } = held;
        const service = await logService(request, record, token, { projectName, serviceName });
        // The sign-in it was opened with: a log out, an expiry or a new token ends it.
        const stillSignedIn = () => {
          const latest = state.registry.get(id);
          return latest !== undefined && state.vault.token(id, latest.baseUrl) === token;
        };
        return follows.start(id, record, token, service, {
          stillSignedIn,
          resolveProxy: request.resolveProxy,
          // The socket's own end (a refused handshake): a 401/403 ends the sign-in, and with it the panel's other follows.
          failed: (error) => {
            if (!stillSignedIn()) return;
            void failedWithToken(parts, held, error).then(
              () => {
                if (!stillSignedIn()) follows.signInEnded(id);
              },
              () => undefined,
            );
          },
        });
      });
    },

    async stopFollowingServiceLogs(id) {
      follows.stop(id);
    },

    stopAllLogFollows: () => follows.stopAll(),
  };
}
