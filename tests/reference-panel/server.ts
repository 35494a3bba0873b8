import { randomBytes } from 'node:crypto';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';

/**
 * A panel API on 127.0.0.1 for tests and for newcomers: log in, getSession, expiring tokens, and
 * switchable faults that behave the way broken real servers and proxies do.
 */

export interface DemoUser {
  id: string;
  email: string;
  password: string;
  name: string;
  role: string;
  /**
   * When set, this user logs in with a second factor: this fixed code (tests need no clock).
   * Without a code the panel answers like Easypanel 2.33+ (`ReferencePanelOptions.twoFactorPrompt`).
   */
  twoFactorCode?: string;
}

export const DEMO_USER: DemoUser = {
  id: 'usr_1001',
  email: 'demo@paneldeck.test',
  password: 'demo-password',
  name: 'Demo Operator',
  role: 'admin',
};

/** A user with two-factor log in, whose code is always 246810. */
export const TWO_FACTOR_USER: DemoUser = {
  id: 'usr_1002',
  email: 'guarded@paneldeck.test',
  password: 'guarded-password',
  name: 'Guarded Operator',
  role: 'admin',
  twoFactorCode: '246810',
};

/** Easypanel 2.33+'s answers: a 200 without a token when the code is missing, a 400 when it is wrong. */
const EASYPANEL_PROMPT = { status: 200, body: { twoFactorEnabled: true } };
const INVALID_CODE = { code: 'BAD_REQUEST', status: 400, message: 'Invalid Code' };

export type Fault =
  | { kind: 'latency'; ms: number }
  | { kind: 'server-error' }
  | { kind: 'bad-gateway-html' }
  | { kind: 'invalid-json' }
  | { kind: 'html-page' }
  | { kind: 'huge-body'; bytes?: number }
  | { kind: 'never-ending-body' }
  | { kind: 'redirect'; to: string; status?: number }
  | { kind: 'rate-limited'; retryAfterSeconds?: number }
  /** Any status; `reason` replaces the standard reason phrase, `contentType` sends `body` as text. */
  | { kind: 'status'; status: number; body?: unknown; reason?: string; contentType?: string };

export type Route = 'login' | 'getSession';

export interface ReferencePanelOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  users?: DemoUser[];
  tokenTtlMs?: number;
  /** The login path under `/api`; default `/login`. */
  loginPath?: string;
  /** Dot path where the login answer puts the token; default `token`. `result.data.json.token` is tRPC's. */
  tokenPath?: string;
  /** Serve https with this key and certificate instead of http. */
  tls?: { key: string; cert: string };
  /** How a two-factor user's log in without a code is answered; default Easypanel's 200 `{ twoFactorEnabled: true }`. */
  twoFactorPrompt?: { status: number; body: unknown };
  /** How a wrong code is answered; default Easypanel's 400 "Invalid Code". */
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

export interface RequestEvent {
  /** The request's path, e.g. `/api/getSession`. */
  path: string;
  /**
   * `arrived` first; then `answered` once the panel has handed over its whole answer, or `hung-up`
   * when the client closed the connection before that (a cancelled request).
   */
  phase: 'arrived' | 'answered' | 'hung-up';
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
  requests: RecordedRequest[];
  setFault(route: Route, fault: Fault | null): void;
  setTokenTtl(ms: number): void;
  /** Makes every token issued so far invalid, as a server-side logout or expiry would. */
  expireAllTokens(): void;
  issuedTokens(): string[];
  /** Answers every valid getSession with this JSON instead of the demo session; `undefined` restores it. */
  setSessionBody(body: unknown): void;
  close(): Promise<void>;
}

interface IssuedToken {
  user: DemoUser;
  issuedAt: number;
  expiresAt: number;
}

export async function startReferencePanel(options: ReferencePanelOptions = {}): Promise<ReferencePanel> {
  const users = options.users ?? [DEMO_USER];
  const loginPath = options.loginPath ?? '/login';
  const tokenPath = (options.tokenPath ?? 'token').split('.');
  let tokenTtlMs = options.tokenTtlMs ?? 60 * 60 * 1000;
  const tokens = new Map<string, IssuedToken>();
  const faults = new Map<Route, Fault>();
  const requests: RecordedRequest[] = [];
  let sessionBody: unknown = undefined;

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const body = await readBody(request);
    const url = new URL(request.url ?? '/', 'http://placeholder');
    requests.push({ method: request.method ?? '', path: url.pathname + url.search, headers: request.headers, body });

    // `/api/v2/...` answers like `/api/...` without faults: the target of a same-origin redirect.
    const moved = url.pathname.startsWith('/api/v2/');
    const path = moved ? `/api/${url.pathname.slice('/api/v2/'.length)}` : url.pathname;
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
      if (user.twoFactorCode !== undefined) {
        const prompt = options.twoFactorPrompt ?? EASYPANEL_PROMPT;
        if (credentials.code === undefined) return sendJson(response, prompt.status, prompt.body);
        if (credentials.code !== user.twoFactorCode) {
          const wrong = options.wrongCodeAnswer ?? { status: 400, body: INVALID_CODE };
          return sendJson(response, wrong.status, wrong.body);
        }
      }
      const token = options.issueToken?.() ?? randomBytes(32).toString('base64url');
      const issuedAt = Date.now();
      tokens.set(token, { user, issuedAt, expiresAt: issuedAt + tokenTtlMs });
      return sendJson(response, 200, nest(tokenPath, token));
    }

    if (request.method !== 'GET') return sendJson(response, 405, { error: 'Method not allowed' });
    const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    const issued = bearer === undefined ? undefined : tokens.get(bearer);
    if (!issued) return sendJson(response, 401, { error: 'Not authenticated' });
    if (issued.expiresAt <= Date.now()) return sendJson(response, 401, { error: 'Token expired' });
    if (sessionBody !== undefined) return sendJson(response, 200, sessionBody);
    const { password: _password, twoFactorCode: _code, ...user } = issued.user;
    return sendJson(response, 200, {
      user,
      issuedAt: new Date(issued.issuedAt).toISOString(),
      expiresAt: new Date(issued.expiresAt).toISOString(),
      ...(options.echoTokenInSession ? { request: { scheme: 'Bearer', value: bearer, header: `Bearer ${bearer}`, sessionKey: 'sk-demo-not-a-real-key' } } : {}),
    });
  };

  const listener = (request: IncomingMessage, response: ServerResponse) => {
    const observe = observed(request, response, options.observer);
    handle(request, response)
      .catch(() => {
        if (!response.headersSent) sendJson(response, 500, { error: 'Reference panel failed' });
        else response.destroy();
      })
      .finally(observe);
  };
  const server: Server = options.tls ? createHttpsServer(options.tls, listener) : createHttpServer(listener);
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
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * Reports the request's arrival now, and its end: `hung-up` when the connection closes before the
 * answer was ended, else `answered` when the returned function is called (the handler is done, so
 * the whole answer is written: the client cannot have read it before this).
 */
function observed(request: IncomingMessage, response: ServerResponse, observer: ReferencePanelOptions['observer']): () => void {
  if (!observer) return () => undefined;
  const path = new URL(request.url ?? '/', 'http://placeholder').pathname;
  let ended = false;
  const end = (phase: 'answered' | 'hung-up') => {
    if (ended) return;
    ended = true;
    observer({ path, phase });
  };
  observer({ path, phase: 'arrived' });
  response.once('close', () => {
    if (!response.writableEnded) end('hung-up');
  });
  return () => end('answered');
}

async function applyFault(fault: Exclude<Fault, { kind: 'latency' }>, response: ServerResponse): Promise<void> {
  switch (fault.kind) {
    case 'server-error':
      return sendJson(response, 500, { error: 'Internal server error' });
    case 'bad-gateway-html':
      response.writeHead(502, { 'content-type': 'text/html' });
      response.end('<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>');
      return;
    case 'invalid-json':
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"user": {"id": "usr_1001", "email": ');
      return;
    case 'html-page':
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end('<!doctype html><html><body><form>Sign in to the proxy</form></body></html>');
      return;
    case 'huge-body':
      return streamHugeBody(response, fault.bytes ?? 5 * 1024 * 1024);
    case 'never-ending-body':
      return streamForever(response);
    case 'redirect':
      response.writeHead(fault.status ?? 302, { location: fault.to });
      response.end();
      return;
    case 'rate-limited':
      response.writeHead(429, { 'content-type': 'application/json', 'retry-after': String(fault.retryAfterSeconds ?? 30) });
      response.end(JSON.stringify({ error: 'Too many requests' }));
      return;
    case 'status':
      if (fault.reason !== undefined) response.statusMessage = fault.reason;
      if (fault.contentType !== undefined) {
        response.writeHead(fault.status, { 'content-type': fault.contentType });
        response.end(String(fault.body ?? ''));
        return;
      }
      return sendJson(response, fault.status, fault.body ?? { error: `Status ${fault.status}` });
  }
}

/** A valid JSON array that is larger than `bytes`, sent without a Content-Length. */
async function streamHugeBody(response: ServerResponse, bytes: number): Promise<void> {
  response.writeHead(200, { 'content-type': 'application/json' });
  const chunk = JSON.stringify('x'.repeat(64 * 1024 - 3)) + ',';
  response.write('[');
  for (let sent = 0; sent < bytes && !response.destroyed; sent += chunk.length) {
    if (!response.write(chunk)) await new Promise((resolve) => response.once('drain', resolve));
  }
  response.end('0]');
}

/** Headers, then a slow trickle of bytes that never completes, until the client hangs up. */
async function streamForever(response: ServerResponse): Promise<void> {
  response.writeHead(200, { 'content-type': 'application/json' });
  response.write('{"session": "');
  const timer = setInterval(() => response.write('.'), 50);
  await new Promise((resolve) => response.once('close', resolve));
  clearInterval(timer);
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  response.end(text);
}

function nest(path: readonly string[], value: string): unknown {
  return path.reduceRight<unknown>((inner, key) => ({ [key]: inner }), value);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    // A test server still should not buffer without end.
    if (size > 1024 * 1024) break;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Waits, or stops waiting when the client hangs up (the response closes). */
function delay(ms: number, response: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    response.once('close', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}
