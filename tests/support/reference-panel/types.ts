import type { Fault } from './faults.ts';
import type { RequestEvent } from './http.ts';
import type { ServiceActionsState } from './service-actions-state.ts';
import type { ActionReadRoute, ServiceWriteRoute } from './service-writes.ts';
import type { ConsoleRoute } from './console-operations.ts';
import type { PanelUpdate, UpdateRoute } from './panel-update.ts';
import type { BackupRoute, BackupsState } from './backups.ts';
import type { CatalogueOptions } from './openapi.ts';
import type { ServiceLogs } from './service-logs.ts';
import type { ServiceReadRoute, ServicesState } from './services-state.ts';
import type { DemoUser } from './users.ts';

/**
 * The API the reference panel speaks (see docs/easypanel-api.md for the three generations):
 * - `simple` (the default): not an Easypanel generation but the product's own minimal API, for
 *   panels other than Easypanel. `POST /api/login` → `{ token }`, `GET /api/getSession` →
 *   `{ user, issuedAt, expiresAt }`, errors as `{ error: "…" }`.
 * - `trpc`: Easypanel 2.30 and before. tRPC at `/api/trpc/<ns>.<proc>` only: reads are
 *   `GET ?input={"json":…}`, writes `POST {"json":…}`, answers and errors in tRPC envelopes.
 * - `rpc`: Easypanel 2.31 and 2.32. The RPC layer at `/api/rpc/<ns>/<proc>` (`POST {"json":…}`,
 *   `GET` only without input), answers `{"json":…,"meta":[…]}`; also tRPC, but every tRPC GET is
 *   refused with 405, so only its writes (log in, log out) work there.
 * - `public`: Easypanel 2.33 and later. The public API at `/api/<name>` (`POST /api/login`,
 *   `GET /api/getSession`) with plain JSON and `{ code, status, message }` errors; also the RPC
 *   layer and tRPC as a 2.31–2.32 panel answers them.
 */
export type PanelStyle = 'simple' | 'trpc' | 'rpc' | 'public';

/**
 * An operation of the panel, by its 2.33 name where it has one: `login` is also `auth.login` (tRPC)
 * and `auth/login` (RPC), `getUpdateStatus` is `update.getStatus` and `update/getStatus`.
 * `getSystemStats` stands for all the names of the server's load (see `service-reads.ts`).
 */
export type Route = SessionRoute | ServiceReadRoute | ServiceWriteRoute | ActionReadRoute | ConsoleRoute | UpdateRoute | BackupRoute;

/** The session's operations. */
export type SessionRoute = 'login' | 'getSession' | 'logout' | 'getUpdateStatus';

/** Which of the three Easypanel routes a request came by. */
export type Transport = 'trpc' | 'rpc' | 'public';

/** How many log ins the panel takes in a window before it answers 429 TOO_MANY_REQUESTS. */
export interface LogInLimit {
  attempts: number;
  windowMs: number;
}

export interface ReferencePanelOptions {
  /** Which panel's API it speaks; default `simple` (see `PanelStyle`). */
  style?: PanelStyle;
  /** 0 (the default) picks a free port. */
  port?: number;
  users?: DemoUser[];
  /**
   * How long a log in without `rememberMe` lasts; default 1 hour in the `simple` style and 24
   * hours in the Easypanel styles (a session seen in the wild ended about a day after it began).
   */
  tokenTtlMs?: number;
  /** How long a log in with `rememberMe: true` lasts (Easypanel styles); default 30 days. */
  rememberMeTtlMs?: number;
  /**
   * The version the panel reports (`update.getStatus`, 2.33's `getUpdateStatus`); default by
   * style: `trpc` 2.28.1, `rpc` 2.32.2, `easypanel` 2.33.4. The `simple` style has no such route.
   */
  version?: string;
  /** Whether getUpdateStatus says a newer Easypanel is out (`available`); default false. */
  updateAvailable?: boolean;
  /** What Easypanel's update does when it is called (panel-update.ts); none: the update is refused, there being none to install. */
  update?: PanelUpdate;
  /** The release tag getUpdateStatus names (Easypanel's RELEASE_TAG); none: the field is left out. */
  releaseTag?: string;
  /** The 2.33 login path under `/api`; default `/login`. tRPC's and the RPC layer's paths are fixed. */
  loginPath?: string;
  /**
   * Dot path where the login answer puts the token; default `token`. `result.data.json.token` is tRPC's.
   * Used by the `simple` style and 2.33's `POST /api/login`; tRPC and the RPC layer answer in their envelopes.
   */
  tokenPath?: string;
  /** Serve https with this key and certificate instead of http. */
  tls?: { key: string; cert: string };
  /**
   * How a two-factor user's log in without a code is answered, as it is; default Easypanel's 200
   * `{ twoFactorEnabled: true }` (inside the envelope of the route that was asked).
   */
  twoFactorPrompt?: { status: number; body: unknown };
  /** How a wrong code is answered, as it is; default Easypanel's 400 "Invalid Code" (in the envelope of the route asked). */
  wrongCodeAnswer?: { status: number; body: unknown };
  /** Put the caller's token back into the session answer, as some panels do, under a key that does not look secret. */
  echoTokenInSession?: boolean;
  /**
   * Makes each session token it issues; default 32 random bytes in base64url in the `simple` style,
   * a 25-character id (as Easypanel's look) in the others. Panels differ: Laravel Sanctum's `42|pQ7…`
   * has a "|" that URL-encoding changes, which matters to tests of echoes.
   */
  issueToken?: () => string;
  /**
   * Whether `getSession` answers a long-lived API token (`ReferencePanel.createApiToken`) with a
   * session that never ends (`accept`, the default) or 401 (`refuse`). docs/easypanel-api.md says it is not
   * known which a real panel does: `accept` lets a client that reads the session work with such a
   * token, `refuse` tests that it does not depend on it. The version read accepts API tokens always.
   */
  apiTokenSession?: 'accept' | 'refuse';
  /** Limit log ins (Easypanel styles): past `attempts` in `windowMs`, 429 with `data.reset`. Default none. */
  logInLimit?: LogInLimit;
  /**
   * Told of every request as it arrives and as it ends, so that a test can count the requests in
   * flight at the server itself (across several panels that share one observer), and see the
   * connections a client closed before its answer.
   */
  observer?: (event: RequestEvent) => void;
  /**
   * Operation names the panel answers as a path it does not have, as an Easypanel build without
   * them would: tRPC's (`monitor.getSystemStats`), the RPC layer's (`metrics/getSystemStats`) or
   * 2.33's (`getMetricsSystemStats`). For testing a client's fallback to another name.
   */
  withoutOperations?: readonly string[];
  /** Fills the panel with this many demo projects of four services each (see `seedDemoServices`). */
  demoProjects?: number;
  /**
   * What `GET /api/openapi.json` serves: by default the generation's catalogue of the operations the
   * panel answers at its version (openapi.ts); `extraOperations` lists that many more (not served:
   * for size), `hostile` one of the broken or hostile catalogues a client must survive.
   */
  catalogue?: CatalogueOptions;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /**
   * The SHA-256 fingerprint (`AB:CD:…`) of the certificate the connection the request came on was
   * made with: what the client was shown before it sent the request. Null over plain http.
   */
  certificate: string | null;
}

/** A log out the panel was asked for. */
export interface LogoutRecord {
  /** The route that asked: tRPC's or the RPC layer's `auth.logout`, or 2.33's `POST /api/logout`. */
  via: Transport;
  token: string;
  userId: string;
  /** The caller used a long-lived API token: no session ended (only `revokeApiToken` ends one). */
  apiToken: boolean;
}

export interface ReferencePanel {
  /** `http://127.0.0.1:<port>`: what an operator types into Paneldeck. */
  url: string;
  baseUrl: string;
  port: number;
  /** The API it speaks now (an upgrade through `setVersion` changes it). */
  readonly style: PanelStyle;
  requests: RecordedRequest[];
  /** Every log out that ended a session (or was asked with an API token), oldest first. */
  logouts: LogoutRecord[];
  /** The version the panel reports; null in the `simple` style. */
  version(): string | null;
  /**
   * Sets the version the panel reports. With `upgrade`, the panel also speaks that version's
   * generation from the next request on (an Easypanel upgraded in place: 2.30 → 2.31 moves from
   * tRPC to the RPC layer, 2.32 → 2.33 to the public API), its sessions and API tokens still valid.
   */
  setVersion(version: string, options?: { upgrade?: boolean }): void;
  /** What getUpdateStatus says of a newer Easypanel from now on. */
  setUpdateAvailable(available: boolean): void;
  /** What Easypanel's update does from now on (panel-update.ts); null: it is refused, there being none. */
  setUpdate(update: PanelUpdate | null): void;
  /** Whether the panel is restarting after an update: every request gets a 502 meanwhile. */
  restarting(): boolean;
  /** How many times an update restarted it. */
  restarts(): number;
  /** Ends a restart held (`awayMs: 'held'`): the panel answers again on its new version. */
  finishRestart(): void;
  /** Resolves at the panel's next going away (its restart begins), or coming back. */
  nextRestart(event: 'away' | 'back'): Promise<void>;
  /**
   * A fault on a route answers on every path to it (`login` is also `auth.login` and `auth/login`),
   * the same in every style: it stands for a broken server or a proxy, which speak no panel's dialect.
   */
  setFault(route: Route, fault: Fault | null): void;
  /** How long the next log ins without `rememberMe` last. */
  setTokenTtl(ms: number): void;
  /** How long the next log ins with `rememberMe: true` last. */
  setRememberMeTtl(ms: number): void;
  /** Limits log ins from now on (the count starts again); null lifts the limit. */
  setLogInLimit(limit: LogInLimit | null): void;
  /** Makes every session token issued so far invalid, as a server-side logout or expiry would (API tokens stay). */
  expireAllTokens(): void;
  /** The session tokens issued so far (not API tokens). */
  issuedTokens(): string[];
  /** Whether a request with this token would be let in now: a live session (not logged out, not expired) or an API token. */
  acceptsToken(token: string): boolean;
  /**
   * Mints a long-lived API token for the user (default the first user), as Easypanel's
   * `users.generateApiToken` does: it never expires, replaces the user's previous one, and works
   * as `Authorization: Bearer` on the version read and (see `apiTokenSession`) on getSession.
   */
  createApiToken(user?: DemoUser): string;
  /** Ends the user's API token (default the first user's), as `users.revokeApiToken` does. */
  revokeApiToken(user?: DemoUser): void;
  /**
   * Answers every valid getSession with this JSON instead of the demo session (inside the envelope
   * of the route asked); `undefined` restores it.
   */
  setSessionBody(body: unknown): void;
  /**
   * Its projects, services (every type, with `enabled` and task stats) and the server's load, live:
   * `addService`, `crashService`, `setEnabled`, `setSystemLoad`, `setRawAnswer`, ... change what
   * the next read answers. Easypanel styles only.
   */
  readonly services: ServicesState;
  /**
   * What the writes to services leave and how they behave (service-writes.ts): the actions history
   * with build logs, `setDeployTime`, `failDeploys`, `loseNextAnswer`. Easypanel styles only.
   */
  readonly serviceActions: ServiceActionsState;
  /** Backup schedules per service (`addSchedule`), their runs counted (`runs`), a run made to fail (`failRuns`), a raw answer. */
  readonly backups: BackupsState;
  /**
   * The services' runtime logs behind the log WebSocket (`/ws/serviceLogs`, every style): `write`
   * lines, `setFault` a hostile socket, count the `openSockets`.
   */
  readonly logs: ServiceLogs;
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
