import { randomBytes } from 'node:crypto';
import { createServer, type Socket } from 'node:net';
import { startReferencePanel, type DemoUser, type PanelStyle, type ReferencePanel } from '../reference-panel/server.ts';
import { getCACertificates, setDefaultCACertificates } from 'node:tls';
import {
  certificateFingerprint,
  certificateSignedByNewAuthority,
  describeCertificate,
  selfSignedCertificate,
  type CertificateDescription,
} from '../tls-certificate.ts';

/**
 * What the sequences share: reference panels on distinct origins, each with a user of its own
 * (so a password or token for one is recognisable at another), some over TLS with a certificate
 * of their own (self-signed, or with `systemTrusted` the last one signed by an authority the test
 * process adds to its default CA certificates, as a public certificate is), the attacker's
 * certificates any of those may be made to present (self-signed, and one the system trusts), and
 * ports nothing listens on.
 */

export interface Pem {
  key: string;
  cert: string;
}

export interface Certificate {
  pem: Pem;
  sha256: string;
  info: CertificateDescription;
  /** Signed by an authority the process trusts: what the system would accept without a pin. */
  systemTrusted: boolean;
}

/** A TLS server's certificates: its own, and which one it presents now (its own or the attacker's). */
export interface ServerTls {
  own: Certificate;
  presenting: Certificate;
}

export type Target = { kind: 'server' | 'free'; index: number };

export interface Server {
  index: number;
  panel: ReferencePanel;
  user: DemoUser;
  /** Every token this server issued, as far as read; `issuedTokens()` copies its whole map, so it is read only when needed. */
  known: Set<string>;
  /** How many of `issuedTokens()` are in `known`. */
  seen: number;
  /** Null for a server on plain http. */
  tls: ServerTls | null;
}

/**
 * An address with no panel. The test holds the port itself, so nothing else on the machine can
 * take it: whatever arrives is kept (it is checked like what a panel receives) and the
 * connection is dropped before any answer, as a port nothing listens on would refuse it.
 */
export interface FreePort {
  port: number;
  /** Raw requests, headers and body, as they arrived. */
  received: string[];
}

export interface World {
  servers: Server[];
  freePorts: FreePort[];
  /** The certificates an attacker's server presents: no panel's own; the first self-signed, the others trusted by the system. */
  attackers: Certificate[];
  close(): Promise<void>;
}

async function certificate(commonName: string, systemTrusted = false): Promise<Certificate> {
  let pem: Pem;
  if (systemTrusted) {
    const { authority, ...signed } = await certificateSignedByNewAuthority(commonName);
    // This process now trusts it as the system trusts a public certificate.
    setDefaultCACertificates([...getCACertificates('default'), authority]);
    pem = signed;
  } else {
    pem = await selfSignedCertificate({ commonName });
  }
  return { pem, sha256: certificateFingerprint(pem.cert), info: describeCertificate(pem.cert), systemTrusted };
}

export interface WorldOptions {
  /** How many of the servers (every other one, from the second) serve https; default none. */
  tls?: number;
  /** Default the reference panel's simple style. */
  style?: PanelStyle;
  /** The last TLS server's own certificate and an attacker's second one are trusted by the system. */
  systemTrusted?: boolean;
}

export async function startWorld(serverCount: number, freePortCount: number, options: WorldOptions = {}): Promise<World> {
  const tlsCount = options.tls ?? 0;
  const servers: Server[] = [];
  const systemTrusted = options.systemTrusted ?? false;
  const attackers = [await certificate('attacker.paneldeck.test')];
  if (systemTrusted) attackers.push(await certificate('public-attacker.paneldeck.test', true));
  const lastTls = Math.min(tlsCount, Math.floor(serverCount / 2)) * 2 - 1;
  for (let index = 0; index < serverCount; index++) {
    const user: DemoUser = {
      id: `usr_${3000 + index}`,
      email: `operator-${index}@panel-${index}.test`,
      // Mixed case, so that a lower-cased copy on disk is caught too.
      password: `Pw${index}-${randomBytes(12).toString('base64url')}`,
      name: `Operator ${index}`,
      role: 'admin',
    };
    const overTls = index % 2 === 1 && Math.floor(index / 2) < tlsCount;
    const own = overTls ? await certificate(`panel-${index}.paneldeck.test`, systemTrusted && index === lastTls) : null;
    const panel = await startReferencePanel({ users: [user], style: options.style ?? 'simple', ...(own ? { tls: own.pem } : {}) });
    // One app to restart: the model's writes act on it (an Easypanel style only; the simple style has no services).
    if ((options.style ?? 'simple') !== 'simple')
      panel.services.addService({ projectName: 'shop', name: 'web', type: 'app', replicas: { actual: 1, desired: 1 } });
    servers.push({ index, panel, user, known: new Set(), seen: 0, tls: own ? { own, presenting: own } : null });
  }
  const sinks = await Promise.all(Array.from({ length: freePortCount }, () => holdFreePort()));
  return {
    servers,
    freePorts: sinks.map((sink) => sink.free),
    attackers,
    close: async () => {
      await Promise.all([...servers.map((server) => server.panel.close()), ...sinks.map((sink) => sink.close())]);
    },
  };
}

async function holdFreePort(): Promise<{ free: FreePort; close(): Promise<void> }> {
  const received: string[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    let text = '';
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
    socket.on('data', (chunk) => {
      text += chunk.toString('latin1');
      const headerEnd = text.indexOf('\r\n\r\n');
      if (headerEnd < 0) return;
      const length = Number(/\r\ncontent-length: *(\d+)/i.exec(text.slice(0, headerEnd))?.[1] ?? 0);
      if (text.length < headerEnd + 4 + length) return;
      received.push(text);
      socket.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    free: { port, received },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

export function targetPort(world: World, target: Target): number {
  const port = target.kind === 'server' ? world.servers[target.index]?.panel.port : world.freePorts[target.index]?.port;
  if (port === undefined) throw new Error(`no such target ${targetLabel(target)}`);
  return port;
}

export function targetAddress(world: World, target: Target): string {
  const server = target.kind === 'server' ? world.servers[target.index] : undefined;
  return server ? server.panel.url : `http://127.0.0.1:${targetPort(world, target)}`;
}

/** The server at `target` when it serves TLS. */
export function tlsServerAt(world: World, target: Target): (Server & { tls: ServerTls }) | null {
  const server = target.kind === 'server' ? world.servers[target.index] : undefined;
  return server?.tls ? (server as Server & { tls: ServerTls }) : null;
}

/** Every certificate of the world the system trusts (a connection with no pin accepts these). */
export function systemTrusted(world: World): Certificate[] {
  const all = [...world.attackers, ...world.servers.flatMap((server) => (server.tls ? [server.tls.own] : []))];
  return all.filter((certificate) => certificate.systemTrusted);
}

/** Every server presents its own certificate again (a sequence starts so). */
export async function restoreCertificates(world: World): Promise<void> {
  for (const server of world.servers) {
    if (!server.tls || server.tls.presenting === server.tls.own) continue;
    server.tls.presenting = server.tls.own;
    await server.panel.setCertificate(server.tls.own.pem);
  }
}

export function targetLabel(target: Target): string {
  return `${target.kind === 'server' ? 'S' : 'F'}${target.index}`;
}

export function allTargets(world: World): Target[] {
  return [
    ...world.servers.map((server) => ({ kind: 'server' as const, index: server.index })),
    ...world.freePorts.map((_, index) => ({ kind: 'free' as const, index })),
  ];
}

export function sameTarget(a: Target, b: Target): boolean {
  return a.kind === b.kind && a.index === b.index;
}

/** The target a panel's `baseUrl` points at, or `null` for an address the test never used. */
export function targetOfBaseUrl(world: World, baseUrl: string): Target | null {
  return allTargets(world).find((target) => `${targetAddress(world, target)}/api` === baseUrl) ?? null;
}

/** The credentials an operator types for a panel at `target`: its own user's, or a wrong password. */
export function credentialsFor(world: World, target: Target, wrongPassword: string | null): { email: string; password: string } {
  const server = target.kind === 'server' ? world.servers[target.index] : undefined;
  return {
    email: server?.user.email ?? 'nobody@nowhere.test',
    password: wrongPassword ?? server?.user.password ?? 'not-a-panel-password',
  };
}

/** Reads the tokens the server issued since the last look; returns the new ones. */
export function refreshIssued(server: Server): string[] {
  const fresh = server.panel.issuedTokens().slice(server.seen);
  for (const token of fresh) server.known.add(token);
  server.seen += fresh.length;
  return fresh;
}
