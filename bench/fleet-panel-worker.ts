/**
 * A fleet of small panels on a worker thread, for bench/fleet.ts: one node:http server per panel,
 * each on its own port of 127.0.0.1 (the core refuses two panels at one address), answering
 * `/api/getSession` after a set latency. Serving a thousand panels from main would put the
 * servers' own work into the event-loop figures measured there, so they live here.
 *
 * With `state`, each also answers what a check reads beside the session (Easypanel 2.33's task
 * stats, system stats, service list and version), after the same latency; with `writes` too, the
 * 2.33 writes to services (`POST /api/restartAppService`, ...) with an empty answer, as 2.33 does.
 *
 * It counts the requests it answers in flight across all servers (from the request's arrival to
 * its answer), and the most at once since the last `reset`: what a panel operator's servers see.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parentPort, workerData } from 'node:worker_threads';

export interface FleetWorkerData {
  /** Server `index` accepts only `Bearer <tokens[index]>`, as a real panel accepts only its own tokens. */
  tokens: string[];
  latencyMs: number;
  /** Serve the state routes too, each panel running this many services (one in ten down). */
  state?: { services: number; writes?: boolean };
  /** More GET paths (matched without their query), each answered with its text (bench/operation-console.ts: a catalogue and its operations). */
  extraAnswers?: Record<string, string>;
  /** POST paths answered with their text (bench/backups.ts: the RPC route of `listActions`). */
  postAnswers?: Record<string, string>;
  /**
   * An app's settings at this GET path (bench/certificates.ts: `/api/inspectAppService`), with one
   * domain of its own on every panel: `app-<panel index>-<serviceName>.<zone>`, served with HTTPS.
   */
  domains?: { path: string; zone: string };
}

export type FleetWorkerRequest =
  | { id: number; stats: true }
  /** Zeroes the counters and closes idle keep-alive connections, so that a pass starts cold. */
  | { id: number; reset: true }
  | { id: number; close: true };

export interface FleetWorkerReply {
  id: number;
  ports: number[];
  /** Requests answered or under way since the last reset (getSession, and the state routes with `state`). */
  requests: number;
  /** Of those, by path. */
  byPath: Record<string, number>;
  /** Of those, how many were refused (wrong token or path): a bench that sees these is broken. */
  refused: number;
  inFlight: number;
  maxInFlight: number;
}

const port = parentPort;
if (!port) throw new Error('fleet-panel-worker.ts runs as a worker of bench/fleet.ts');
const { tokens, latencyMs, state, extraAnswers, postAnswers, domains } = workerData as FleetWorkerData;

let requests = 0;
let refused = 0;
let inFlight = 0;
let maxInFlight = 0;
let byPath: Record<string, number> = {};
// The same answer for every panel, in the shape of the reference panel's session (with an expiry,
// so that the core's expiry reading runs as it does for real panels).
const session = JSON.stringify({
  user: { id: 'usr_1001', email: 'demo@paneldeck.test', name: 'Demo Operator', role: 'admin' },
  issuedAt: new Date().toISOString(),
  expiresAt: new Date(Date.now() + 60 * 60 * 1000).toISOString(),
});

/** What each path answers: the same for every panel. */
const answers = new Map<string, string>([['/api/getSession', session]]);
if (state) {
  const services = Array.from({ length: state.services }, (_, index) => ({
    projectName: `project-${index % 5}`,
    name: `service-${index}`,
    type: index % 3 === 0 ? 'postgres' : 'app',
    enabled: true,
  }));
  const stats = Object.fromEntries(
    services.map(({ projectName, name }, index) => [`${projectName}_${name}`, { actual: index % 10 === 3 ? 0 : 1, desired: 1 }]),
  );
  const load = {
    uptime: 1_221_900,
    memInfo: { totalMemMb: '7976.26', usedMemMb: '3120.44', usedMemPercentage: '39.12' },
    diskInfo: { totalGb: '78.63', usedGb: '31.20', usedPercentage: '39.68' },
    cpuInfo: { usedPercentage: 12.5, count: 4, loadavg: [0.5, 0.4, 0.3] },
    network: { inputMb: 1234.5, outputMb: 987.6 },
  };
  answers.set('/api/getDockerTaskStats', JSON.stringify(stats));
  answers.set('/api/getLegacyMonitorSystemStats', JSON.stringify(load));
  answers.set(
    '/api/listProjectsAndServices',
    JSON.stringify({ projects: [0, 1, 2, 3, 4].map((n) => ({ name: `project-${n}` })), services }),
  );
  answers.set('/api/getUpdateStatus', JSON.stringify({ version: '2.33.1' }));
}

for (const [path, text] of Object.entries(extraAnswers ?? {})) answers.set(path, text);

/** The app's settings `domains` answers for panel `index`: its one domain, named after the panel and the service asked. */
function settingsOf(index: number, query: string): string {
  const serviceName = new URLSearchParams(query).get('serviceName') ?? '';
  const host = `app-${index}-${serviceName}.${domains!.zone}`;
  return JSON.stringify({ name: serviceName, type: 'app', domains: [{ host, https: true, port: 80, path: '/' }] });
}

function send(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  response.end(text);
}

/** A 2.33 write to a service: deploy, start, stop, restart an app or compose, enable or disable a database. */
const WRITE_PATH =
  /^\/api\/(?:(?:deploy|start|stop|restart)(?:App|Compose)|(?:enable|disable)(?:Postgres|MySQL|MariaDB|Mongo|Redis))Service$/;

function handler(index: number) {
  return (request: IncomingMessage, response: ServerResponse) => {
    // Bodies are not read: a getSession has none, and anything else is refused at once.
    request.resume();
    // A read's input is its query (2.33's GETs): the answer is the path's whatever it asks.
    const [path = '', query = ''] = (request.url ?? '').split('?');
    const write = state?.writes === true && request.method === 'POST' && WRITE_PATH.test(path);
    const posted = request.method === 'POST' ? postAnswers?.[path] : undefined;
    const settings = request.method === 'GET' && path === domains?.path ? settingsOf(index, query) : undefined;
    const answer = write ? '' : (posted ?? settings ?? (request.method === 'GET' ? answers.get(path) : undefined));
    if (answer === undefined) {
      refused++;
      return send(response, 404, '{"error":"Not found"}');
    }
    requests++;
    byPath[path] = (byPath[path] ?? 0) + 1;
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    let finished = false;
    const finish = () => {
      if (finished) return;
      finished = true;
      inFlight--;
    };
    // A client that hangs up (a cancelled check) no longer counts as in flight.
    response.once('close', finish);
    if (request.headers.authorization !== `Bearer ${tokens[index]}`) {
      refused++;
      finish();
      return send(response, 401, '{"error":"Not authenticated"}');
    }
    const timer = setTimeout(() => {
      finish();
      send(response, 200, answer);
    }, latencyMs);
    response.once('close', () => clearTimeout(timer));
  };
}

const servers: Server[] = [];
for (let index = 0; index < tokens.length; index++) {
  const server = createServer(handler(index));
  // As a panel behind nginx (75 s), not Node's 5 s: a client whose event loop is held for seconds
  // must find its connection open, or the figures would show this test server's limit.
  server.keepAliveTimeout = 75_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // Loopback only: the bench must not open anything to the network.
    server.listen(0, '127.0.0.1', () => resolve());
  });
  servers.push(server);
}
const ports = servers.map((server) => (server.address() as AddressInfo).port);

const reply = (id: number): FleetWorkerReply => ({ id, ports, requests, byPath, refused, inFlight, maxInFlight });

port.on('message', async (request: FleetWorkerRequest) => {
  if ('reset' in request) {
    requests = 0;
    byPath = {};
    refused = 0;
    maxInFlight = inFlight;
    for (const server of servers) server.closeIdleConnections();
  }
  if ('close' in request) {
    await Promise.all(
      servers.map(
        (server) =>
          new Promise<void>((resolve) => {
            server.close(() => resolve());
            server.closeAllConnections();
          }),
      ),
    );
  }
  port.postMessage(reply(request.id));
  if ('close' in request) port.close();
});
port.postMessage(reply(0));
