import type { IncomingMessage } from 'node:http';
import { checkLogInInput, type ZodIssue } from './login-input.ts';
import type { Caller, PanelState } from './state.ts';
import type { ReferencePanelOptions, Route, Transport } from './types.ts';
import { codeAccepted, isTwoFactor } from './users.ts';

/**
 * The operations of the Easypanel styles in one table (a route per generation), and what each
 * does, answered as an outcome that the route's module wraps in its generation's envelope.
 */

export interface Operation {
  route: Route;
  /** A query is read with GET in tRPC and the public API; a mutation is a POST. */
  kind: 'query' | 'mutation';
  /** tRPC's procedure (`/api/trpc/<name>`). */
  trpc: string;
  /** The RPC layer's path (`/api/rpc/<name>`). */
  rpc: string;
  /** 2.33's flat name (`/api/<name>`); the log in's follows `ReferencePanelOptions.loginPath`. */
  public: string;
}

export const OPERATIONS: readonly Operation[] = [
  { route: 'login', kind: 'mutation', trpc: 'auth.login', rpc: 'auth/login', public: 'login' },
  { route: 'getSession', kind: 'query', trpc: 'auth.getSession', rpc: 'auth/getSession', public: 'getSession' },
  { route: 'logout', kind: 'mutation', trpc: 'auth.logout', rpc: 'auth/logout', public: 'logout' },
  { route: 'getUpdateStatus', kind: 'query', trpc: 'update.getStatus', rpc: 'update/getStatus', public: 'getUpdateStatus' },
];

/** The error codes the panel answers with: HTTP status, and tRPC's JSON-RPC number. */
export const ERROR_CODES = {
  BAD_REQUEST: { status: 400, jsonRpc: -32600 },
  UNAUTHORIZED: { status: 401, jsonRpc: -32001 },
  NOT_FOUND: { status: 404, jsonRpc: -32004 },
  METHOD_NOT_SUPPORTED: { status: 405, jsonRpc: -32005 },
  TOO_MANY_REQUESTS: { status: 429, jsonRpc: -32029 },
  INTERNAL_SERVER_ERROR: { status: 500, jsonRpc: -32603 },
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export interface Failure {
  code: ErrorCode;
  message: string;
  /** Why the input was refused, as zod reports it. */
  issues?: readonly ZodIssue[];
  /** For TOO_MANY_REQUESTS: when to try again, epoch milliseconds. */
  reset?: number;
}

export type Outcome =
  /** `dates`: the top-level keys that hold dates, which tRPC and the RPC layer mark in `meta`. */
  | { kind: 'data'; data: unknown; dates: readonly string[] }
  | { kind: 'failure'; failure: Failure }
  /** An answer a test configured (`twoFactorPrompt`, `wrongCodeAnswer`): sent exactly as it is. */
  | { kind: 'as-is'; status: number; body: unknown };

export function fail(code: ErrorCode, message: string, extra: Omit<Failure, 'code' | 'message'> = {}): Outcome {
  return { kind: 'failure', failure: { code, message, ...extra } };
}

const data = (value: unknown, dates: readonly string[] = []): Outcome => ({ kind: 'data', data: value, dates });

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

export interface CallContext {
  options: ReferencePanelOptions;
  state: PanelState;
  via: Transport;
  request: IncomingMessage;
}

/** Does the operation with the input (already taken out of the route's envelope). */
export function perform(route: Route, input: unknown, context: CallContext): Outcome {
  const { options, state } = context;
  if (route === 'login') return logIn(input, context);
  const token = bearerOf(context.request);
  const caller = state.caller(token);
  if (!caller) return fail('UNAUTHORIZED', 'Unauthorized');
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
      return data({ version: state.version() });
  }
}

function logIn(input: unknown, { options, state }: CallContext): Outcome {
  const checked = checkLogInInput(input);
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
