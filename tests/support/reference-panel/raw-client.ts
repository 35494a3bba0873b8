import { OPERATIONS, type Operation } from './operations.ts';
import { servedAtVersion } from './outcomes.ts';
import { startReferencePanel } from './server.ts';
import type { PanelStyle, ReferencePanel, ReferencePanelOptions, Route, Transport } from './types.ts';
import { DEMO_USER, TWO_FACTOR_USER } from './users.ts';

/**
 * A client of raw `fetch` calls for tests that pin the reference panel to docs/easypanel-api.md: it builds
 * each generation's request by hand and reads its envelope, with nothing of Paneldeck's core.
 */

export interface RawAnswer {
  status: number;
  contentType: string | null;
  /** The body parsed as JSON; the text itself when it is not JSON (`''` for an empty body). */
  body: unknown;
}

export interface CallInit {
  /** Sent as JSON with `content-type: application/json`. */
  json?: unknown;
  /** Sent as it is, for bodies that are not JSON or empty. */
  rawBody?: string;
  /** Sent as `Authorization: Bearer <token>`. */
  token?: string;
  /** Sent as the whole `Authorization` header (for a bare token). */
  authorization?: string;
}

export async function call(panel: ReferencePanel, method: string, path: string, init: CallInit = {}): Promise<RawAnswer> {
  const headers: Record<string, string> = {};
  if (init.json !== undefined || init.rawBody !== undefined) headers['content-type'] = 'application/json';
  if (init.token !== undefined) headers.authorization = `Bearer ${init.token}`;
  if (init.authorization !== undefined) headers.authorization = init.authorization;
  const body = init.json === undefined ? init.rawBody : JSON.stringify(init.json);
  const response = await fetch(`${panel.url}${path}`, { method, headers, ...(body === undefined ? {} : { body }) });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = text;
  }
  return { status: response.status, contentType: response.headers.get('content-type'), body: parsed };
}

/** The first entry of the route that has a name on `via` at the panel's version. */
function operation(route: Route, via: Transport, version: string | null): Operation {
  const found = OPERATIONS.find((candidate) => candidate.route === route && candidate[via] !== null && servedAtVersion(candidate, version));
  if (!found) throw new Error(`no operation ${route} by ${via}`);
  return found;
}

/**
 * Calls an operation as a client of that route does: tRPC reads `GET ?input={"json":…}` and
 * writes `POST {"json":…}`; the RPC layer `POST {"json":…}` (`null` without input); 2.33 reads
 * `GET /api/<name>` and writes `POST` with the plain input (no body without input). `route` may be
 * a table entry, for a read with several names (`getSystemStats`).
 */
export function operate(
  panel: ReferencePanel,
  via: Transport,
  route: Route | Operation,
  input?: unknown,
  token?: string,
): Promise<RawAnswer> {
  const { kind, trpc, rpc, public: flat } = typeof route === 'string' ? operation(route, via, panel.version()) : route;
  const auth = token === undefined ? {} : { token };
  switch (via) {
    case 'trpc':
      if (kind === 'query') {
        const query = encodeURIComponent(JSON.stringify({ json: input ?? null }));
        return call(panel, 'GET', `/api/trpc/${trpc}?input=${query}`, auth);
      }
      return call(panel, 'POST', `/api/trpc/${trpc}`, { ...auth, json: { json: input ?? null } });
    case 'rpc':
      return call(panel, 'POST', `/api/rpc/${rpc}`, { ...auth, json: { json: input ?? null } });
    case 'public':
      return call(panel, kind === 'query' ? 'GET' : 'POST', `/api/${flat}`, { ...auth, ...(input === undefined ? {} : { json: input }) });
  }
}

/** The data of a success in the route's envelope. */
export function dataOf(via: Transport, body: unknown): unknown {
  if (via === 'trpc') return (body as { result?: { data?: { json?: unknown } } }).result?.data?.json;
  if (via === 'rpc') return (body as { json?: unknown }).json;
  return body;
}

/** The code, message and data of an error in the route's envelope. */
export function errorOf(via: Transport, body: unknown): { code: unknown; message: unknown; data: unknown } {
  if (via === 'trpc') {
    const json = (body as { error?: { json?: { message?: unknown; data?: { code?: unknown } } } }).error?.json;
    return { code: json?.data?.code, message: json?.message, data: json?.data };
  }
  const error = (via === 'rpc' ? (body as { json?: unknown }).json : body) as { code?: unknown; message?: unknown; data?: unknown };
  return { code: error?.code, message: error?.message, data: error?.data };
}

/** The token of a log in's success, failing loudly when there is none. */
export function tokenOf(via: Transport, answer: RawAnswer): string {
  const token = (dataOf(via, answer.body) as { token?: unknown } | undefined)?.token;
  if (answer.status !== 200 || typeof token !== 'string') throw new Error(`no token: ${answer.status} ${JSON.stringify(answer.body)}`);
  return token;
}

/** The demo account's log-in input. */
export const DEMO_CREDENTIALS = { email: DEMO_USER.email, password: DEMO_USER.password };

/** Easypanel's three API generations, as the reference panel's styles. */
export type Generation = Exclude<PanelStyle, 'simple'>;

/** The route each generation's own clients call by. */
export const GENERATION_ROUTES: Readonly<Record<Generation, Transport>> = { trpc: 'trpc', rpc: 'rpc', public: 'public' };

/** The demo account's token, logged in through `via` (2.31+ refuse tRPC reads, yet still log in through it). */
export async function logInVia(panel: ReferencePanel, via: Transport): Promise<string> {
  return tokenOf(via, await operate(panel, via, 'login', DEMO_CREDENTIALS));
}

/** Runs `run` against a panel started for it (users: the demo and the two-factor account), then closes it. */
export async function withReferencePanel(options: ReferencePanelOptions, run: (panel: ReferencePanel) => Promise<void>): Promise<void> {
  const panel = await startReferencePanel({ users: [DEMO_USER, TWO_FACTOR_USER], ...options });
  try {
    await run(panel);
  } finally {
    await panel.close();
  }
}
