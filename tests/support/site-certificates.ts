import { createServer as createTcpServer, type Socket } from 'node:net';
import { createSecureContext, createServer, type Server, type TLSSocket } from 'node:tls';
import { testAuthority } from './tls-certificate.ts';

/**
 * Websites' certificates for tests of the Certificates view: one throw-away authority signing a
 * certificate per host name (DNS name in the SAN) with a given number of days (-1: it ended a day
 * ago), and one loopback TLS server that picks each by SNI and records every byte it is sent after
 * the handshake (a certificate read must send none); it may wait a latency before each handshake
 * (bench/certificates.ts: a website across a network).
 */

export interface SiteCertificate {
  /** The name the certificate is valid for ("*.x.test": every name one label under x.test). */
  name: string;
  /** Days from now to its end; -1 ended a day ago (openssl's least). */
  days: number;
}

export interface SiteAuthority {
  authority: string;
  /** A key and certificate signed by the authority. */
  sign(site: SiteCertificate): Promise<{ key: string; cert: string }>;
  cleanup(): Promise<void>;
}

export async function siteAuthority(): Promise<SiteAuthority> {
  const authority = await testAuthority({ commonName: 'Paneldeck Test Sites Authority', days: 400 });
  return {
    authority: authority.authority,
    async sign({ name, days }) {
      // A wildcard ("*.soon.test") stands for many hosts of a large fleet: one certificate, not one each.
      if (!/^(\*\.)?[a-z0-9.-]+$/.test(name)) throw new Error(`siteAuthority: "${name}" is not a host name`);
      return authority.sign({ commonName: name, subjectAltName: `DNS:${name}`, days });
    },
    cleanup: authority.cleanup,
  };
}

export interface SitesServer {
  port: number;
  /** The SNI name of each handshake, in order. */
  servernames: string[];
  /** Bytes each connection was sent after its handshake. */
  bytesAfterHandshake(): number;
  /** Resolves once every connection so far has closed. */
  allClosed(): Promise<unknown>;
  close(): Promise<void>;
}

/**
 * A loopback TLS server presenting, for each SNI name, the certificate given for it (else the
 * first). With `latencyMs`, each connection waits that long after it is accepted before the TLS
 * server reads its ClientHello: the handshake's answer comes a round trip later, as across a network.
 */
export async function sitesServer(
  byName: ReadonlyMap<string, { key: string; cert: string }>,
  options: { latencyMs?: number } = {},
): Promise<SitesServer> {
  const contexts = new Map([...byName].map(([name, pair]) => [name, createSecureContext(pair)]));
  const first = [...byName.values()][0]!;
  const servernames: string[] = [];
  const closed: Promise<unknown>[] = [];
  let bytes = 0;
  const server: Server = createServer({
    ...first,
    // Heard at the ClientHello: a client that closes right after its handshake may close before the server's side ends.
    SNICallback: (name, done) => {
      servernames.push(name);
      done(null, contexts.get(name) ?? contexts.values().next().value);
    },
  });
  server.on('connection', (raw: Socket) => closed.push(new Promise((resolve) => raw.once('close', resolve))));
  // Whatever a client sends after its handshake comes here, decrypted; a handshake alone sends nothing.
  server.on('secureConnection', (socket: TLSSocket) => {
    socket.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
    });
    socket.on('error', () => undefined);
  });
  const latencyMs = options.latencyMs ?? 0;
  // With a latency, a plain TCP server accepts and hands each connection on (paused, nothing read) once it has passed.
  const listening =
    latencyMs > 0
      ? createTcpServer({ pauseOnConnect: true }, (raw) => {
          const timer = setTimeout(() => server.emit('connection', raw), latencyMs);
          raw.once('close', () => clearTimeout(timer));
          raw.on('error', () => undefined);
        })
      : server;
  await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve));
  const address = listening.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return {
    port: address.port,
    servernames,
    bytesAfterHandshake: () => bytes,
    allClosed: () => Promise.all(closed),
    close: () => new Promise((resolve) => listening.close(() => resolve())),
  };
}
