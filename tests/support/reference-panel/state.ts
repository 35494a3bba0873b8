import { randomBytes } from 'node:crypto';
import { createBackupsState } from './backups.ts';
import { createServiceActionsState } from './service-actions-state.ts';
import { createServicesState } from './services-state.ts';
import { createUpdateState } from './panel-update.ts';
import type { LogInLimit, LogoutRecord, PanelStyle, ReferencePanelOptions } from './types.ts';
import { DEMO_USER, type DemoUser } from './users.ts';

/**
 * What the panel holds between requests: sessions, API tokens, log outs, its version and limits,
 * and (`services`) its projects, services and load.
 */

export interface IssuedToken {
  user: DemoUser;
  /** Easypanel's session id for this token. */
  sessionId: string;
  issuedAt: number;
  expiresAt: number;
}

export interface ApiToken {
  user: DemoUser;
  /** The id of the endless session getSession describes for it. */
  sessionId: string;
  createdAt: number;
}

/** Who a request's token stands for: a session (from a log in) or a long-lived API token. */
export type Caller = { kind: 'session'; token: string; issued: IssuedToken } | { kind: 'api-token'; token: string; apiToken: ApiToken };

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

/** The versions the Easypanel styles report unless told another. */
export const DEFAULT_VERSIONS: Readonly<Record<PanelStyle, string | null>> = {
  simple: null,
  trpc: '2.28.1',
  rpc: '2.32.2',
  public: '2.33.4',
};

/** A 25-character id of lowercase letters and digits, as Easypanel's session tokens look. */
function easypanelId(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  return Array.from(randomBytes(25), (byte) => alphabet[byte % alphabet.length]).join('');
}

export type PanelState = ReturnType<typeof createPanelState>;

export function createPanelState(options: ReferencePanelOptions, style: PanelStyle) {
  const users = options.users ?? [DEMO_USER];
  const tokens = new Map<string, IssuedToken>();
  const apiTokens = new Map<string, ApiToken>();
  const logouts: LogoutRecord[] = [];
  let tokenTtlMs = options.tokenTtlMs ?? (style === 'simple' ? HOUR : DAY);
  let rememberMeTtlMs = options.rememberMeTtlMs ?? 30 * DAY;
  let version = options.version ?? DEFAULT_VERSIONS[style];
  // Whether a newer Easypanel is out, as getUpdateStatus's `available` says it.
  let updateAvailable = options.updateAvailable ?? false;
  let sessionBody: unknown;
  let limit = options.logInLimit ?? null;
  let counted = { startedAt: 0, tries: 0 };
  const services = createServicesState();
  const serviceActions = createServiceActionsState(services);
  const newToken = options.issueToken ?? (style === 'simple' ? () => randomBytes(32).toString('base64url') : easypanelId);

  return {
    users,
    logouts,
    services,
    serviceActions,
    update: createUpdateState(options.update ?? null),
    backups: createBackupsState(services, serviceActions),
    version: () => version,
    setVersion: (next: string) => {
      version = next;
    },
    updateAvailable: () => updateAvailable,
    setUpdateAvailable: (available: boolean) => {
      updateAvailable = available;
    },
    sessionBody: () => sessionBody,
    setSessionBody: (body: unknown) => {
      sessionBody = body;
    },
    setTokenTtl: (ms: number) => {
      tokenTtlMs = ms;
    },
    setRememberMeTtl: (ms: number) => {
      rememberMeTtlMs = ms;
    },
    setLogInLimit: (next: LogInLimit | null) => {
      limit = next;
      counted = { startedAt: 0, tries: 0 };
    },
    /** Counts a log in; when it is one too many, the time (epoch ms) the window ends. */
    logInRefusedUntil: (now = Date.now()): number | null => {
      if (limit === null) return null;
      if (now >= counted.startedAt + limit.windowMs) counted = { startedAt: now, tries: 0 };
      counted.tries++;
      return counted.tries > limit.attempts ? counted.startedAt + limit.windowMs : null;
    },
    /** A new session token for the user, lasting the remember-me lifetime when asked. */
    issue: (user: DemoUser, rememberMe = false): string => {
      const token = newToken();
      const issuedAt = Date.now();
      const ttl = rememberMe ? rememberMeTtlMs : tokenTtlMs;
      tokens.set(token, { user, sessionId: randomBytes(12).toString('hex'), issuedAt, expiresAt: issuedAt + ttl });
      return token;
    },
    /** The session of a token, also when it has expired (the `simple` style says which). */
    session: (token: string): IssuedToken | undefined => tokens.get(token),
    /** Who the token stands for, when it is a live session or an API token. */
    caller: (token: string | undefined): Caller | undefined => {
      if (token === undefined) return undefined;
      const issued = tokens.get(token);
      if (issued && issued.expiresAt > Date.now()) return { kind: 'session', token, issued };
      const apiToken = apiTokens.get(token);
      return apiToken ? { kind: 'api-token', token, apiToken } : undefined;
    },
    endSession: (token: string) => {
      const issued = tokens.get(token);
      if (issued) issued.expiresAt = 0;
    },
    expireAllTokens: () => {
      for (const issued of tokens.values()) issued.expiresAt = 0;
    },
    issuedTokens: () => [...tokens.keys()],
    createApiToken: (user: DemoUser): string => {
      for (const [token, held] of apiTokens) if (held.user.id === user.id) apiTokens.delete(token);
      const token = randomBytes(32).toString('hex');
      apiTokens.set(token, { user, sessionId: randomBytes(12).toString('hex'), createdAt: Date.now() });
      return token;
    },
    revokeApiToken: (user: DemoUser) => {
      for (const [token, held] of apiTokens) if (held.user.id === user.id) apiTokens.delete(token);
    },
  };
}
