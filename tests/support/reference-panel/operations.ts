import type { IncomingMessage } from 'node:http';
import { validateLogInInput } from './login-input.ts';
import { type CallContext, data, fail, type Operation, type Outcome } from './outcomes.ts';
import { isServiceRead, performServiceRead, SERVICE_READ_OPERATIONS } from './service-reads.ts';
import { isServiceWrite, performServiceWrite, SERVICE_WRITE_OPERATIONS } from './service-writes.ts';
import { CONSOLE_OPERATIONS, isConsoleRoute, performConsoleOperation } from './console-operations.ts';
import { isUpdateRoute, performUpdate, UPDATE_OPERATIONS } from './panel-update.ts';
import { BACKUP_OPERATIONS, isBackupRoute, performBackupOperation } from './backups.ts';
import type { Caller } from './state.ts';
import type { ReferencePanelOptions, Route } from './types.ts';
import { codeAccepted, isTwoFactor } from './users.ts';

/**
 * The operations of the Easypanel styles in one table (a route per generation), and what each
 * does, answered as an outcome that the route's module wraps in its generation's envelope. The
 * session's operations are here; each other group (service reads, ...) has its own module with
 * its table part and its `perform`, joined here.
 */

export type { CallContext, ErrorCode, Failure, Operation, Outcome } from './outcomes.ts';
export { ERROR_CODES, fail, servedOperations } from './outcomes.ts';

const SESSION_OPERATIONS: readonly Operation[] = [
  { route: 'login', kind: 'mutation', trpc: 'auth.login', rpc: 'auth/login', public: 'login' },
  { route: 'getSession', kind: 'query', trpc: 'auth.getSession', rpc: 'auth/getSession', public: 'getSession' },
  { route: 'logout', kind: 'mutation', trpc: 'auth.logout', rpc: 'auth/logout', public: 'logout' },
  { route: 'getUpdateStatus', kind: 'query', trpc: 'update.getStatus', rpc: 'update/getStatus', public: 'getUpdateStatus' },
];

export const OPERATIONS: readonly Operation[] = [
  ...SESSION_OPERATIONS,
  ...SERVICE_READ_OPERATIONS,
  ...SERVICE_WRITE_OPERATIONS,
  ...CONSOLE_OPERATIONS,
  ...UPDATE_OPERATIONS,
  ...BACKUP_OPERATIONS,
];

/** The token of `Authorization: Bearer <token>`; Easypanel also takes the bare token. */
export function bearerOf(request: IncomingMessage): string | undefined {
  const header = request.headers.authorization;
  if (header === undefined || header === '') return undefined;
  return /^Bearer (.+)$/.exec(header)?.[1] ?? header;
}

/** What `echoTokenInSession` adds to a session answer. */
export function echoedToken(options: ReferencePanelOptions, bearer: string | undefined): Record<string, unknown> {
  return options.echoTokenInSession
    ? { request: { scheme: 'Bearer', value: bearer, header: `Bearer ${bearer}`, sessionKey: 'sk-demo-not-a-real-key' } }
    : {};
}

/** An API token's session has no end: the latest date JSON can say. */
const NEVER = '9999-12-31T23:59:59.999Z';

/** The session as Easypanel describes it: no email, no token. */
function sessionOf(caller: Caller) {
  if (caller.kind === 'api-token') {
    const { apiToken } = caller;
    const createdAt = new Date(apiToken.createdAt).toISOString();
    return { id: apiToken.sessionId, createdAt, userId: apiToken.user.id, expiresAt: NEVER, demoMode: false };
  }
  const { issued } = caller;
  return {
    id: issued.sessionId,
    createdAt: new Date(issued.issuedAt).toISOString(),
    userId: issued.user.id,
    expiresAt: new Date(issued.expiresAt).toISOString(),
    demoMode: false,
  };
}

/** Does the operation with the input (already taken out of the route's envelope); a deploy answers when it has ended. */
export function perform(route: Route, input: unknown, context: CallContext): Outcome | Promise<Outcome> {
  const { options, state } = context;
  if (route === 'login') return logIn(input, context);
  const token = bearerOf(context.request);
  const caller = state.caller(token);
  if (!caller) return fail('UNAUTHORIZED', 'Unauthorized');
  if (isServiceRead(route)) return performServiceRead(route, input, context);
  if (isServiceWrite(route)) return performServiceWrite(route, input, context);
  if (isConsoleRoute(route)) return performConsoleOperation(route, input, context);
  if (isUpdateRoute(route)) return performUpdate(route, input, context);
  if (isBackupRoute(route)) return performBackupOperation(route, input, context);
  switch (route) {
    case 'getSession': {
      if (caller.kind === 'api-token' && options.apiTokenSession === 'refuse') return fail('UNAUTHORIZED', 'Unauthorized');
      const body = state.sessionBody();
      if (body !== undefined) return data(body);
      return data({ ...sessionOf(caller), ...echoedToken(options, token) }, ['createdAt', 'expiresAt']);
    }
    case 'logout': {
      if (caller.kind === 'session') state.endSession(caller.token);
      const userId = caller.kind === 'session' ? caller.issued.user.id : caller.apiToken.user.id;
      state.logouts.push({ via: context.via, token: caller.token, userId, apiToken: caller.kind === 'api-token' });
      // What a real log out returns is not known: nothing (null in an envelope, an empty body on 2.33).
      return data(undefined);
    }
    case 'getUpdateStatus':
      return data({
        version: state.version(),
        available: state.updateAvailable(),
        ...(options.releaseTag === undefined ? {} : { releaseTag: options.releaseTag }),
      });
  }
}

function logIn(input: unknown, { options, state }: CallContext): Outcome {
  const checked = validateLogInInput(input);
  if (!checked.ok) return fail('BAD_REQUEST', 'Input validation failed', { issues: checked.issues });
  const reset = state.logInRefusedUntil();
  if (reset !== null) return fail('TOO_MANY_REQUESTS', 'Too many requests', { reset });
  const { email, password, code, rememberMe } = checked.value;
  const user = state.users.find((candidate) => candidate.email === email && candidate.password === password);
  if (!user) return fail('UNAUTHORIZED', 'Invalid credentials');
  if (isTwoFactor(user)) {
    if (code === undefined)
      return options.twoFactorPrompt ? { kind: 'as-is', ...options.twoFactorPrompt } : data({ twoFactorEnabled: true });
    if (!codeAccepted(user, code)) {
      return options.wrongCodeAnswer ? { kind: 'as-is', ...options.wrongCodeAnswer } : fail('BAD_REQUEST', 'Invalid Code');
    }
  }
  return data({ token: state.issue(user, rememberMe === true) });
}
