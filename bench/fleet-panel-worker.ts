/**
 * A fleet of small panels on a worker thread, for bench/fleet.ts: one node:http server per panel,
 * each on its own port of 127.0.0.1 (the service refuses two panels at one address), answering
 * `/api/getSession` after a set latency. Serving a thousand panels from main would put the
 * servers' own work into the event-loop figures measured there, so they live here.
 *
 * It counts the getSession requests in flight across all servers (from the request's arrival to
 * its answer), and the most at once since the last `reset`: what a panel operator's servers see.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parentPort, workerData } from 'node:worker_threads';

export interface FleetWorkerData {
  /** Server `index` accepts only `Bearer <tokens[index]>`, as a real panel accepts only its own tokens. */
  tokens: string[];
  latencyMs: number;
}

export type FleetWorkerRequest =
  | { id: number; stats: true }
  /** Zeroes the counters and closes idle keep-alive connections, so that a pass starts cold. */
  | { id: number; reset: true }
  | { id: number; close: true };

export interface FleetWorkerReply {
  id: number;
  ports: number[];
  /** getSession requests answered or under way since the last reset. */
  requests: number;
  /** Of those, how many were refused (wrong token or path): a bench that sees these is broken. */
  refused: number;
  inFlight: number;
  maxInFlight: number;
}

const port = parentPort;
if (!port) throw new Error('fleet-panel-worker.ts runs as a worker of bench/fleet.ts');
const { tokens, latencyMs } = workerData as FleetWorkerData;

let requests = 0;
let refused = 0;
let inFlight = 0;
let maxInFlight = 0;
// The same answer for every panel, in the shape of the reference panel's session (with an expiry,
// so that the service's expiry reading runs as it does for real panels).
const session = JSON.stringify({
  user: { id: 'usr_1001', email: 'demo@paneldeck.test', name: 'Demo Operator', role: 'admin' },
  issuedAt: new Date().toISOString(),
  expiresAt: new Date(Date.now() + 60 * 60 * 1000).toISOString(),
});

function send(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  response.end(text);
}

function handler(index: number) {
  return (request: IncomingMessage, response: ServerResponse) => {
    // Bodies are not read: a getSession has none, and anything else is refused at once.
    request.resume();
    if (request.method !== 'GET' || request.url !== '/api/getSession') {
      refused++;
      return send(response, 404, '{"error":"Not found"}');
    }
    requests++;
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
      send(response, 200, session);
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

const reply = (id: number): FleetWorkerReply => ({ id, ports, requests, refused, inFlight, maxInFlight });

port.on('message', async (request: FleetWorkerRequest) => {
  if ('reset' in request) {
    requests = 0;
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
