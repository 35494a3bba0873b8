import { X509Certificate } from 'node:crypto';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import type { IncomingCall, PanelContext } from './call.ts';
import { applyFault, type Fault } from './faults.ts';
import { easypanelStyleOf, STYLE_SERVERS } from './generations.ts';
import { observed, readBody, sendAnswer } from './http.ts';
import { seedDemoServices } from './demo-services.ts';
import { createServiceLogs } from './service-logs.ts';
import { createPanelState } from './state.ts';
import { catalogueDocument, sendCatalogue } from './openapi.ts';
import { sendHostileCatalogue } from './catalogue-hostile.ts';
import { bearerOf } from './operations.ts';
import type { RecordedRequest, ReferencePanel, ReferencePanelOptions, Route } from './types.ts';
import { DEMO_USER } from './users.ts';

/**
 * A panel API on 127.0.0.1 for tests and for newcomers: log in, the session, log out, the version,
 * expiring tokens and API tokens, and switchable faults that behave the way broken real servers and
 * proxies do. It speaks one style (`ReferencePanelOptions.style`): its own simple one, or one of
 * Easypanel's three generations as docs/easypanel-api.md describes them (see `PanelStyle`).
 */

export type { Fault } from './faults.ts';
export type { CatalogueOptions, HostileCatalogue } from './openapi.ts';
export { describeRoutes, STYLE_SERVERS, PANEL_STYLES } from './generations.ts';
export type { RequestEvent } from './http.ts';
export { type DemoSeed, describeServices, seedDemoServices } from './demo-services.ts';
export {
  NAME_PATTERN,
  type Replicas,
  SERVICE_TYPES,
  type ServiceRecord,
  type ServicesState,
  type ServiceType,
  type SystemLoad,
  taskKey,
} from './services-state.ts';
export { DEFAULT_VERSIONS } from './state.ts';
export type { PanelUpdate } from './panel-update.ts';
export { BACKLOG_LINES, type LogSocketFault, SERVICE_LOGS_PATH, type ServiceLogs } from './service-logs.ts';
export { trpcError, trpcResult } from './trpc.ts';
export type {
  LogInLimit,
  LogoutRecord,
  PanelStyle,
  RecordedRequest,
  ReferencePanel,
  ReferencePanelOptions,
  Route,
  Transport,
} from './types.ts';
export { DEMO_USER, type DemoUser, demoTotp, newTotpSecret, TWO_FACTOR_USER } from './users.ts';

export async function startReferencePanel(options: ReferencePanelOptions = {}): Promise<ReferencePanel> {
  // An upgrade in place (`setVersion` with `upgrade`) moves the panel to another generation.
  let style = options.style ?? 'simple';
  const generation = () => STYLE_SERVERS[style];
  const state = createPanelState(options, style);
  if (options.demoProjects !== undefined) seedDemoServices(state.services, { projects: options.demoProjects });
  const faults = new Map<Route, Fault>();
  const requests: RecordedRequest[] = [];
  const context: PanelContext = { options, state, faults };
  // Back from an update: the new version, and that version's generation (an upgrade in place).
  state.update.onComeBack((version) => {
    if (style !== 'simple') style = easypanelStyleOf(style, version);
    state.setVersion(version);
    state.setUpdateAvailable(false);
  });

  const handle = async (request: IncomingMessage, response: ServerResponse, certificate: string | null) => {
    const body = await readBody(request);
    const url = new URL(request.url ?? '/', 'http://placeholder');
    requests.push({ method: request.method ?? '', path: url.pathname + url.search, headers: request.headers, body, certificate });

    // `/api/v2/...` answers like `/api/...` without faults: the target of a same-origin redirect.
    const moved = url.pathname.startsWith('/api/v2/');
    const path = moved ? `/api/${url.pathname.slice('/api/v2/'.length)}` : url.pathname;
    const call: IncomingCall = { request, response, path, moved, body, search: url.searchParams };
    // Restarting after an update: the proxy in front of it answers for it.
    if (state.update.away()) return applyFault({ kind: 'bad-gateway-html' }, response);
    if (path === '/api/openapi.json' && request.method === 'GET' && style !== 'simple') {
      const hostile = options.catalogue?.hostile;
      if (hostile) sendHostileCatalogue(response, style, options.catalogue ?? {}, bearerOf(request) ?? '');
      else sendCatalogue(response, catalogueDocument(style, options, state));
      return;
    }
    for (const answerer of generation().answerers) if (await answerer(context, call)) return;
    sendAnswer(response, generation().notFound());
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
    handle(request, response, tracked?.fingerprint ?? null)
      .catch(() => {
        if (!response.headersSent) sendAnswer(response, generation().internalError());
        else response.destroy();
      })
      .finally(observe);
  };
  const httpsServer: HttpsServer | null = options.tls ? createHttpsServer(options.tls, listener) : null;
  const server: Server = httpsServer ?? createHttpServer(listener);
  const logs = createServiceLogs(state.services, (token) => state.caller(token) !== undefined);
  server.on('upgrade', (request: IncomingMessage, socket: Socket, head: Buffer) => {
    if (!logs.upgrade(request, socket, head, tlsSockets.get(socket)?.fingerprint ?? null)) socket.destroy();
  });
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
    get style() {
      return style;
    },
    requests,
    logouts: state.logouts,
    version: state.version,
    setVersion: (version, { upgrade = false } = {}) => {
      if (upgrade) style = easypanelStyleOf(style, version);
      state.setVersion(version);
    },
    setUpdateAvailable: state.setUpdateAvailable,
    setUpdate: state.update.setPlan,
    restarting: state.update.away,
    restarts: state.update.restarts,
    finishRestart: state.update.finishRestart,
    nextRestart: state.update.next,
    setFault: (route, fault) => (fault ? faults.set(route, fault) : faults.delete(route)),
    setTokenTtl: state.setTokenTtl,
    setRememberMeTtl: state.setRememberMeTtl,
    setLogInLimit: state.setLogInLimit,
    expireAllTokens: state.expireAllTokens,
    issuedTokens: state.issuedTokens,
    acceptsToken: (token) => state.caller(token) !== undefined,
    createApiToken: (user = state.users[0] ?? DEMO_USER) => state.createApiToken(user),
    revokeApiToken: (user = state.users[0] ?? DEMO_USER) => state.revokeApiToken(user),
    setSessionBody: state.setSessionBody,
    services: state.services,
    serviceActions: state.serviceActions,
    backups: state.backups,
    logs,
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
        logs.close();
        // Also connections that have finished their handshake but sent no request yet.
        for (const socket of tlsSockets.keys()) socket.destroy();
      }),
  };
}
