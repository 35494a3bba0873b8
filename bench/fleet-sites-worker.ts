/**
 * The fleet's websites on a worker thread, for bench/certificates.ts: two loopback TLS servers
 * (tests/support/site-certificates.ts) presenting one certificate to every SNI name, one waiting
 * `latencyMs` before each handshake (the websites across a network) and one not (a bare
 * handshake's own time). Serving 2,000 handshakes from main would put the servers' own TLS work
 * into the event-loop and wall figures measured there, so they live here.
 *
 * It counts the handshakes each server answered since the last `reset`: the ClientHellos it chose a
 * certificate for by their SNI name (a probe closes the moment it has the certificate, before the
 * server hears the client's Finished, so the server's `secureConnection` does not count them), and
 * the distinct names among them.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { sitesServer } from '../tests/support/site-certificates.ts';

export interface SitesWorkerData {
  /** The certificate every name is presented (a wildcard for the bench's hosts). */
  pair: { key: string; cert: string };
  latencyMs: number;
}

export type SitesWorkerRequest = { id: number; stats: true } | { id: number; reset: true } | { id: number; close: true };

export interface SitesServerCounts {
  port: number;
  /** Handshakes answered (ClientHellos given a certificate) since the last reset. */
  handshakes: number;
  /** Distinct SNI names heard since the last reset. */
  names: number;
  /** Bytes sent after a handshake since the last reset: a certificate read sends none. */
  bytesAfterHandshake: number;
}

export interface SitesWorkerReply {
  id: number;
  /** The server waiting `latencyMs` before each handshake. */
  delayed: SitesServerCounts;
  /** The server answering at once. */
  bare: SitesServerCounts;
}

const port = parentPort;
if (!port) throw new Error('fleet-sites-worker.ts runs as a worker of bench/certificates.ts');
const { pair, latencyMs } = workerData as SitesWorkerData;

const certificates = new Map([['*', pair]]);
const servers = { delayed: await sitesServer(certificates, { latencyMs }), bare: await sitesServer(certificates) };
const since = { delayed: { handshakes: 0, bytes: 0 }, bare: { handshakes: 0, bytes: 0 } };

function counts(which: 'delayed' | 'bare'): SitesServerCounts {
  const server = servers[which];
  const base = since[which];
  return {
    port: server.port,
    handshakes: server.servernames.length - base.handshakes,
    names: new Set(server.servernames.slice(base.handshakes)).size,
    bytesAfterHandshake: server.bytesAfterHandshake() - base.bytes,
  };
}

port.on('message', async (request: SitesWorkerRequest) => {
  if ('reset' in request) {
    for (const which of ['delayed', 'bare'] as const) {
      const server = servers[which];
      since[which] = { handshakes: server.servernames.length, bytes: server.bytesAfterHandshake() };
    }
  }
  if ('close' in request) await Promise.all([servers.delayed.close(), servers.bare.close()]);
  port.postMessage({ id: request.id, delayed: counts('delayed'), bare: counts('bare') } satisfies SitesWorkerReply);
  if ('close' in request) port.close();
});
port.postMessage({ id: 0, delayed: counts('delayed'), bare: counts('bare') } satisfies SitesWorkerReply);
