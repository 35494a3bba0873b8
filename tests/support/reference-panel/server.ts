import { randomBytes, X509Certificate } from 'node:crypto';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { applyFault, delay, type Fault } from './faults.ts';
import { nest, observed, parseJson, readBody, type RequestEvent, sendJson } from './http.ts';
export type { RequestEvent } from './http.ts';
import { codeAccepted, DEMO_USER, type DemoUser, isTwoFactor } from './users.ts';

export { DEMO_USER, type DemoUser, demoTotp, newTotpSecret, TWO_FACTOR_USER } from './users.ts';
export type { Fault } from './faults.ts';

/**
 * A panel API on 127.0.0.1 for tests and for newcomers: log in, getSession, expiring tokens, and
 * switchable faults that behave the way broken real servers and proxies do. It speaks one of three
 * styles (`ReferencePanelOptions.style`): its own simple one, Easypanel 2.33+'s plain API, or the
 * tRPC API of Easypanel 2.30 and before.
 */

/**
 * - `simple` (the default): `POST /api/login` → `{ token }`, `GET /api/getSession` → `{ user, issuedAt, expiresAt }`,
 *   errors as `{ error: "…" }`.
 * - `easypanel` (2.33+): the same paths; the session is `{ id, createdAt, userId, expiresAt, demoMode }`
 *   and every error is `{ code, status, message }`.
 * - `trpc` (2.30 and before): `POST /api/trpc/auth.login` with `{ json: {…} }` and
 *   `GET /api/trpc/auth.getSession?input={"json":null}`, answers and errors in tRPC envelopes.
 */
export type PanelStyle = 'simple' | 'easypanel' | 'trpc';

/** Easypanel 2.33+'s answers: a 200 without a token when the code is missing, a 400 when it is wrong. */
const EASYPANEL_PROMPT = { status: 200, body: { twoFactorEnabled: true } };
const INVALID_CODE = { code: 'BAD_REQUEST', status: 400, message: 'Invalid Code' };

export type Route = 'login' | 'getSession';

export interface ReferencePanelOptions {
  /** Which panel's API it speaks; default `simple` (see `PanelStyle`). */
  style?: PanelStyle;
  /** 0 (the default) picks a free port. */
  port?: number;
  users?: DemoUser[];
  tokenTtlMs?: number;
  /** The login path under `/api`; default `/login`. Not used by the `trpc` style, whose paths are fixed. */
  loginPath?: string;
  /**
   * Dot path where the login answer puts the token; default `token`. `result.data.json.token` is tRPC's.
   * Not used by the `trpc` style, which always answers in a tRPC envelope.
   */
  tokenPath?: string;
  /** Serve https with this key and certificate instead of http. */
  tls?: { key: string; cert: string };
  /**
   * How a two-factor user's log in without a code is answered, as it is; default Easypanel's 200
   * `{ twoFactorEnabled: true }` (in the `trpc` style: inside a tRPC result envelope).
   */
  twoFactorPrompt?: { status: number; body: unknown };
  /** How a wrong code is answered, as it is; default Easypanel's 400 "Invalid Code" (in the `trpc` style: a tRPC BAD_REQUEST). */
  wrongCodeAnswer?: { status: number; body: unknown };
  /** Put the caller's token back into the session answer, as some panels do, under a key that does not look secret. */
  echoTokenInSession?: boolean;
  /**
   * Makes each token it issues; default 32 random bytes in base64url. Panels differ: Laravel
   * Sanctum's `42|pQ7…` has a "|" that URL-encoding changes, which matters to tests of echoes.
   */
  issueToken?: () => string;
  /**
   * Told of every request as it arrives and as it ends, so that a test can count the requests in
   * flight at the server itself (across several panels that share one observer), and see the
   * connections a client closed before its answer.
   */
  observer?: (event: RequestEvent) => void;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export interface ReferencePanel {
  /** `http://127.0.0.1:<port>`: what an operator types into Paneldeck. */
  url: string;
  baseUrl: string;
  port: number;
  style: PanelStyle;
  requests: RecordedRequest[];
  /**
   * `login` and `getSession` are also tRPC's `auth.login` and `auth.getSession`. A fault answers the
   * same in every style (it stands for a broken server or a proxy, which speak no panel's dialect).
   */
  setFault(route: Route, fault: Fault | null): void;
  setTokenTtl(ms: number): void;
  /** Makes every token issued so far invalid, as a server-side logout or expiry would. */
  expireAllTokens(): void;
  issuedTokens(): string[];
  /**
   * Answers every valid getSession with this JSON instead of the demo session (in the `trpc` style
   * inside the result envelope); `undefined` restores it.
   */
  setSessionBody(body: unknown): void;
  /**
   * Only for a panel started with `tls`: new connections present this certificate from now on, and
   * connections made with the old one are closed (idle ones now, busy ones after their answer), so the
   * next request needs a new handshake. Throws at once on an http panel or a certificate that is not PEM.
   *
   * The swap itself is done when this returns. The promise resolves once the idle connections are
   * closed and the event loop has turned twice, so that a client in this process has seen them close:
   * await it before the next request, or that request may go out on a connection already closed
   * (a keep-alive client then sees "closed before the answer" unless it retries on a new one).
   */
  setCertificate(tls: { key: string; cert: string }): Promise<void>;
  close(): Promise<void>;
}

interface IssuedToken {
  user: DemoUser;
  /** Easypanel's session id for this token. */
  sessionId: string;
  issuedAt: number;
  expiresAt: number;
}

/** Easypanel 2.33+'s error body: `{ code, status, message }`, with the status sent as the HTTP status. */
function easypanelError(code: string, status: number, message: string): { status: number; body: unknown } {
  return { status, body: { code, status, message } };
}

/** tRPC's error codes: JSON-RPC number and HTTP status. */
const TRPC_ERRORS = {
  BAD_REQUEST: [-32600, 400],
  UNAUTHORIZED: [-32001, 401],
  NOT_FOUND: [-32004, 404],
  METHOD_NOT_SUPPORTED: [-32005, 405],
  TOO_MANY_REQUESTS: [-32029, 429],
  INTERNAL_SERVER_ERROR: [-32603, 500],
} as const;

/** A tRPC (v10, superjson) error envelope, sent with its httpStatus; `path` is the procedure when there is one. */
export function trpcError(code: keyof typeof TRPC_ERRORS, message: string, path?: string): { status: number; body: unknown } {
  const [number, httpStatus] = TRPC_ERRORS[code];
  return {
    status: httpStatus,
    body: { error: { json: { message, code: number, data: { code, httpStatus, ...(path === undefined ? {} : { path }) } } } },
  };
}

/** A tRPC (v10, superjson) result envelope. */
export function trpcResult(value: unknown): unknown {
  return { result: { data: { json: value } } };
}

const TRPC_PROCEDURES: Record<string, { route: Route; type: 'query' | 'mutation'; method: 'GET' | 'POST' }> = {
  'auth.login': { route: 'login', type: 'mutation', method: 'POST' },
  'auth.getSession': { route: 'getSession', type: 'query', method: 'GET' },
};

export async function startReferencePanel(options: ReferencePanelOptions = {}): Promise<ReferencePanel> {
  const style = options.style ?? 'simple';
  const users = options.users ?? [DEMO_USER];
  const loginPath = options.loginPath ?? '/login';
  const tokenPath = (options.tokenPath ?? 'token').split('.');
  let tokenTtlMs = options.tokenTtlMs ?? 60 * 60 * 1000;
  const tokens = new Map<string, IssuedToken>();
  const faults = new Map<Route, Fault>();
  const requests: RecordedRequest[] = [];
  let sessionBody: unknown;

  const issue = (user: DemoUser): string => {
    const token = options.issueToken?.() ?? randomBytes(32).toString('base64url');
    const issuedAt = Date.now();
    tokens.set(token, { user, sessionId: randomBytes(12).toString('hex'), issuedAt, expiresAt: issuedAt + tokenTtlMs });
    return token;
  };
  const echo = (bearer: string | undefined) =>
    options.echoTokenInSession
      ? { request: { scheme: 'Bearer', value: bearer, header: `Bearer ${bearer}`, sessionKey: 'sk-demo-not-a-real-key' } }
      : {};
  /** The token's session when it is known and not expired. */
  const sessionOf = (request: IncomingMessage): { issued: IssuedToken; bearer: string } | undefined => {
    const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    const issued = bearer === undefined ? undefined : tokens.get(bearer);
    return issued && bearer !== undefined && issued.expiresAt > Date.now() ? { issued, bearer } : undefined;
  };
  /** The session as Easypanel (both versions) describes it: no email, no token. */
  const easypanelSession = (issued: IssuedToken) => ({
    id: issued.sessionId,
    createdAt: new Date(issued.issuedAt).toISOString(),
    userId: issued.user.id,
    expiresAt: new Date(issued.expiresAt).toISOString(),
    demoMode: false,
  });

  /** The `simple` style, as it has always answered. */
  const handleSimple = async (request: IncomingMessage, response: ServerResponse, path: string, moved: boolean, body: string) => {
    const route: Route | null = path === `/api${loginPath}` ? 'login' : path === '/api/getSession' ? 'getSession' : null;
    if (route === null) return sendJson(response, 404, { error: 'Not found' });

    const fault = moved ? undefined : faults.get(route);
    if (fault?.kind === 'latency') await delay(fault.ms, response);
    else if (fault) return applyFault(fault, response);

    if (route === 'login') {
      if (request.method !== 'POST') return sendJson(response, 405, { error: 'Method not allowed' });
      const credentials = parseJson(body) as { email?: unknown; password?: unknown; code?: unknown } | undefined;
      if (typeof credentials?.email !== 'string' || typeof credentials.password !== 'string') {
        return sendJson(response, 400, { error: 'email and password are required' });
      }
      const user = users.find((candidate) => candidate.email === credentials.email && candidate.password === credentials.password);
      if (!user) return sendJson(response, 401, { error: 'Invalid email or password' });
      if (isTwoFactor(user)) {
        const prompt = options.twoFactorPrompt ?? EASYPANEL_PROMPT;
        if (credentials.code === undefined) return sendJson(response, prompt.status, prompt.body);
        if (!codeAccepted(user, credentials.code)) {
          const wrong = options.wrongCodeAnswer ?? { status: 400, body: INVALID_CODE };
          return sendJson(response, wrong.status, wrong.body);
        }
      }
      return sendJson(response, 200, nest(tokenPath, issue(user)));
    }

    if (request.method !== 'GET') return sendJson(response, 405, { error: 'Method not allowed' });
    const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    const issued = bearer === undefined ? undefined : tokens.get(bearer);
    if (!issued) return sendJson(response, 401, { error: 'Not authenticated' });
    if (issued.expiresAt <= Date.now()) return sendJson(response, 401, { error: 'Token expired' });
    if (sessionBody !== undefined) return sendJson(response, 200, sessionBody);
    const { password: _password, twoFactorCode: _code, totpSecret: _secret, ...user } = issued.user;
    return sendJson(response, 200, {
      user,
      issuedAt: new Date(issued.issuedAt).toISOString(),
      expiresAt: new Date(issued.expiresAt).toISOString(),
      ...echo(bearer),
    });
  };

  /** Easypanel 2.33+: plain paths, `{ code, status, message }` errors. */
  const handleEasypanel = async (request: IncomingMessage, response: ServerResponse, path: string, moved: boolean, body: string) => {
    const send = (answer: { status: number; body: unknown }) => sendJson(response, answer.status, answer.body);
    const route: Route | null = path === `/api${loginPath}` ? 'login' : path === '/api/getSession' ? 'getSession' : null;
    if (route === null) return send(easypanelError('NOT_FOUND', 404, 'Not found'));

    const fault = moved ? undefined : faults.get(route);
    if (fault?.kind === 'latency') await delay(fault.ms, response);
    else if (fault) return applyFault(fault, response);

    const expected = route === 'login' ? 'POST' : 'GET';
    if (request.method !== expected) return send(easypanelError('METHOD_NOT_SUPPORTED', 405, 'Method not supported'));

    if (route === 'login') {
      const input = parseJson(body) as { email?: unknown; password?: unknown; rememberMe?: unknown; code?: unknown } | undefined;
      if (
        typeof input?.email !== 'string' ||
        typeof input.password !== 'string' ||
        (input.rememberMe !== undefined && typeof input.rememberMe !== 'boolean') ||
        (input.code !== undefined && typeof input.code !== 'string')
      ) {
        return send(easypanelError('BAD_REQUEST', 400, 'Input validation failed'));
      }
      const user = users.find((candidate) => candidate.email === input.email && candidate.password === input.password);
      if (!user) return send(easypanelError('UNAUTHORIZED', 401, 'Invalid credentials'));
      if (isTwoFactor(user)) {
        if (input.code === undefined) return send(options.twoFactorPrompt ?? EASYPANEL_PROMPT);
        if (!codeAccepted(user, input.code)) return send(options.wrongCodeAnswer ?? { status: 400, body: INVALID_CODE });
      }
      return sendJson(response, 200, nest(tokenPath, issue(user)));
    }

    const session = sessionOf(request);
    if (!session) return send(easypanelError('UNAUTHORIZED', 401, 'Unauthorized'));
    if (sessionBody !== undefined) return sendJson(response, 200, sessionBody);
    return sendJson(response, 200, { ...easypanelSession(session.issued), ...echo(session.bearer) });
  };

  /**
   * Easypanel 2.30 and before: tRPC v10 with superjson at `/api/trpc/<procedure>`. Every other path
   * (`/api/login` and `/api/getSession` too, which such a version does not have) answers 404 with a
   * tRPC NOT_FOUND envelope that names no procedure.
   */
  const handleTrpc = async (
    request: IncomingMessage,
    response: ServerResponse,
    path: string,
    moved: boolean,
    body: string,
    search: URLSearchParams,
  ) => {
    const send = (answer: { status: number; body: unknown }) => sendJson(response, answer.status, answer.body);
    if (!path.startsWith('/api/trpc/')) return send(trpcError('NOT_FOUND', 'Not found'));
    const name = path.slice('/api/trpc/'.length);
    const procedure = Object.hasOwn(TRPC_PROCEDURES, name) ? TRPC_PROCEDURES[name] : undefined;
    if (!procedure) {
      return send(trpcError('NOT_FOUND', `No "${request.method === 'GET' ? 'query' : 'mutation'}"-procedure on path "${name}"`, name));
    }

    const fault = moved ? undefined : faults.get(procedure.route);
    if (fault?.kind === 'latency') await delay(fault.ms, response);
    else if (fault) return applyFault(fault, response);

    if (request.method !== procedure.method) {
      return send(
        trpcError(
          'METHOD_NOT_SUPPORTED',
          `Unsupported ${request.method ?? ''}-request to ${procedure.type} procedure at path "${name}"`,
          name,
        ),
      );
    }

    if (procedure.route === 'login') {
      const input = (parseJson(body) as { json?: { email?: unknown; password?: unknown; code?: unknown } } | undefined)?.json;
      if (
        typeof input?.email !== 'string' ||
        typeof input.password !== 'string' ||
        (input.code !== undefined && typeof input.code !== 'string')
      ) {
        return send(trpcError('BAD_REQUEST', 'Input validation failed', name));
      }
      const user = users.find((candidate) => candidate.email === input.email && candidate.password === input.password);
      if (!user) return send(trpcError('UNAUTHORIZED', 'Invalid credentials', name));
      if (isTwoFactor(user)) {
        if (input.code === undefined) return send(options.twoFactorPrompt ?? { status: 200, body: trpcResult(EASYPANEL_PROMPT.body) });
        if (!codeAccepted(user, input.code)) return send(options.wrongCodeAnswer ?? trpcError('BAD_REQUEST', 'Invalid Code', name));
      }
      return sendJson(response, 200, trpcResult({ token: issue(user) }));
    }

    const input = search.get('input');
    if (input !== null && parseJson(input) === undefined) return send(trpcError('BAD_REQUEST', 'Input is not JSON', name));
    const session = sessionOf(request);
    if (!session) return send(trpcError('UNAUTHORIZED', 'Unauthorized', name));
    if (sessionBody !== undefined) return sendJson(response, 200, trpcResult(sessionBody));
    return sendJson(response, 200, trpcResult({ ...easypanelSession(session.issued), ...echo(session.bearer) }));
  };

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const body = await readBody(request);
    const url = new URL(request.url ?? '/', 'http://placeholder');
    requests.push({ method: request.method ?? '', path: url.pathname + url.search, headers: request.headers, body });

    // `/api/v2/...` answers like `/api/...` without faults: the target of a same-origin redirect.
    const moved = url.pathname.startsWith('/api/v2/');
    const path = moved ? `/api/${url.pathname.slice('/api/v2/'.length)}` : url.pathname;
    if (style === 'easypanel') return handleEasypanel(request, response, path, moved, body);
    if (style === 'trpc') return handleTrpc(request, response, path, moved, body, url.searchParams);
    return handleSimple(request, response, path, moved, body);
  };

  // TLS: which certificate each connection was made with, so that a swap can close the old ones.
  let currentFingerprint = options.tls ? new X509Certificate(options.tls.cert).fingerprint256 : null;
  const tlsSockets = new Map<Socket, { fingerprint: string | undefined; busy: number }>();
  const staleTls = (socket: Socket) => {
    const known = tlsSockets.get(socket);
    return known !== undefined && known.fingerprint !== currentFingerprint;
  };

  const listener = (request: IncomingMessage, response: ServerResponse) => {
    const observe = observed(request, response, options.observer);
    const socket = request.socket;
    const tracked = tlsSockets.get(socket);
    if (tracked) {
      tracked.busy++;
      // Made with a certificate that has since been replaced: this answer is its last.
      if (staleTls(socket)) response.setHeader('connection', 'close');
      response.once('close', () => {
        tracked.busy--;
        if (tracked.busy === 0 && staleTls(socket)) socket.end();
      });
    }
    const fail = () => {
      if (style === 'simple') return sendJson(response, 500, { error: 'Reference panel failed' });
      const answer =
        style === 'trpc'
          ? trpcError('INTERNAL_SERVER_ERROR', 'Reference panel failed')
          : easypanelError('INTERNAL_SERVER_ERROR', 500, 'Reference panel failed');
      sendJson(response, answer.status, answer.body);
    };
    handle(request, response)
      .catch(() => {
        if (!response.headersSent) fail();
        else response.destroy();
      })
      .finally(observe);
  };
  const httpsServer: HttpsServer | null = options.tls ? createHttpsServer(options.tls, listener) : null;
  const server: Server = httpsServer ?? createHttpServer(listener);
  httpsServer?.on('secureConnection', (socket: TLSSocket) => {
    const local = socket.getCertificate() as { fingerprint256?: string } | null;
    tlsSockets.set(socket, { fingerprint: local?.fingerprint256, busy: 0 });
    socket.once('close', () => tlsSockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const url = `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`;

  return {
    url,
    baseUrl: `${url}/api`,
    port,
    style,
    requests,
    setFault: (route, fault) => (fault ? faults.set(route, fault) : faults.delete(route)),
    setTokenTtl: (ms) => {
      tokenTtlMs = ms;
    },
    expireAllTokens: () => {
      for (const issued of tokens.values()) issued.expiresAt = 0;
    },
    issuedTokens: () => [...tokens.keys()],
    setSessionBody: (body) => {
      sessionBody = body;
    },
    setCertificate: ({ key, cert }) => {
      if (!httpsServer)
        throw new Error('setCertificate: this reference panel serves plain http; start it with the `tls` option to swap certificates.');
      let fingerprint: string;
      try {
        fingerprint = new X509Certificate(cert).fingerprint256;
      } catch (error) {
        throw new Error(`setCertificate: the certificate is not a PEM certificate (${String(error)})`);
      }
      httpsServer.setSecureContext({ key, cert });
      currentFingerprint = fingerprint;
      const closing: Promise<unknown>[] = [];
      for (const [socket, tracked] of tlsSockets) {
        if (tracked.busy === 0 && tracked.fingerprint !== fingerprint) {
          closing.push(new Promise((resolve) => socket.once('close', resolve)));
          socket.destroy();
        }
      }
      // Two turns of the event loop after the close: time for a client in this process to read it.
      const turn = () => new Promise((resolve) => setImmediate(resolve));
      return Promise.all(closing)
        .then(turn)
        .then(turn)
        .then(() => undefined);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        // Also connections that have finished their handshake but sent no request yet.
        for (const socket of tlsSockets.keys()) socket.destroy();
      }),
  };
}
