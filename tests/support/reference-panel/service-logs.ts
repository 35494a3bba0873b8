import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { type WebSocket, WebSocketServer } from 'ws';
import type { ServicesState } from './services-state.ts';

/**
 * The runtime log WebSocket (docs/easypanel-api.md, "runtime logs (live)"): `GET /ws/serviceLogs?token=&
 * service=<p>_<s>&compose=false` (`true` for a compose service: the other way round is a 404) at the root of the panel's origin (beside `/api`, not under it),
 * the same in every generation. The token only in the URL; a refused one gets HTTP 401 before any
 * upgrade. Each frame is `{"output": "..."}`; the first is the backlog (the lines written so far,
 * at most `BACKLOG_LINES`), the next ones are lines as they are written (`write`).
 */

export const SERVICE_LOGS_PATH = '/ws/serviceLogs';
/** How many lines a service's log keeps for the backlog. */
export const BACKLOG_LINES = 20_000;

/** What the log socket does instead of behaving (tests of a client's bounds). */
export type LogSocketFault =
  /** Upgrades, then sends nothing and never closes. */
  | { kind: 'silent' }
  /** The backlog, then frames of `linesPerFrame` lines as fast as the client reads them, until it hangs up. */
  | { kind: 'flood'; linesPerFrame?: number }
  /** The backlog is one message of `bytes` (default 100 MB), sent in 1 MB fragments. */
  | { kind: 'huge-backlog'; bytes?: number }
  /** A first frame that is not `{"output": string}`. */
  | { kind: 'bad-frame'; body: string }
  /** The upgrade is answered with this status (401, 403: the token refused for the log alone), whatever the token. */
  | { kind: 'refuse'; status: number };

export interface LogSocketRecord {
  service: string;
  /** Whether it was asked for with `compose=true`. */
  compose: boolean;
  /** The SHA-256 fingerprint of the certificate the connection was made with; null over plain http. */
  certificate: string | null;
}

export type ServiceLogs = ReturnType<typeof createServiceLogs>;

export function createServiceLogs(services: ServicesState, accepts: (token: string | undefined) => boolean) {
  const logs = new Map<string, string[]>();
  const open = new Map<WebSocket, string>();
  const seen: LogSocketRecord[] = [];
  // Every upgrade asked of the log route, refused or not: the token it carried in its URL.
  const asked: string[] = [];
  const server = new WebSocketServer({ noServer: true });
  let fault: LogSocketFault | null = null;

  /**
   * The service named `<p>_<s>` (names may hold `_` themselves: every split is tried), asked for
   * as its type wants: a compose service's log only with `compose=true`, any other's only without.
   */
  const known = (key: string, compose: boolean) =>
    services.services().some((record) => `${record.projectName}_${record.name}` === key && (record.type === 'compose') === compose);

  const refuse = (socket: Duplex, status: number, reason: string) => {
    socket.end(`HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json\r\nconnection: close\r\n\r\n`);
  };

  const sendFrame = (socket: WebSocket, output: string) => socket.send(JSON.stringify({ output }));

  const flood = (socket: WebSocket, linesPerFrame: number) => {
    let n = 0;
    const next = () => {
      if (socket.readyState !== socket.OPEN) return;
      const lines = Array.from({ length: linesPerFrame }, () => `flood line ${n++} ${'x'.repeat(60)}`);
      // The callback runs once the frame is handed to the kernel: the client's pace sets the flood's.
      socket.send(JSON.stringify({ output: `${lines.join('\n')}\n` }), () => setImmediate(next));
    };
    next();
  };

  const hugeBacklog = (socket: WebSocket, bytes: number) => {
    const piece = Buffer.from(`${'y'.repeat(1023)}\\n`.repeat(1024));
    socket.send('{"output":"', { fin: false });
    let sent = 0;
    const next = () => {
      if (socket.readyState !== socket.OPEN) return;
      if (sent >= bytes) return socket.send('"}', { fin: true });
      sent += piece.length;
      socket.send(piece, { fin: false }, () => setImmediate(next));
    };
    next();
  };

  const welcome = (socket: WebSocket, service: string) => {
    open.set(socket, service);
    socket.once('close', () => open.delete(socket));
    socket.on('error', () => socket.terminate());
    const current = fault;
    if (current?.kind === 'silent') return;
    if (current?.kind === 'huge-backlog') return hugeBacklog(socket, current.bytes ?? 100 * 1024 * 1024);
    if (current?.kind === 'bad-frame') return socket.send(current.body);
    const backlog = logs.get(service) ?? [];
    sendFrame(socket, backlog.length === 0 ? '' : `${backlog.join('\n')}\n`);
    if (current?.kind === 'flood') flood(socket, current.linesPerFrame ?? 200);
  };

  return {
    /** The `upgrade` listener of the panel's HTTP(S) server. */
    upgrade: (request: IncomingMessage, socket: Duplex, head: Buffer, certificate: string | null): boolean => {
      const url = new URL(request.url ?? '/', 'http://placeholder');
      if (url.pathname !== SERVICE_LOGS_PATH) return false;
      socket.on('error', () => socket.destroy());
      asked.push(url.searchParams.get('token') ?? '');
      const service = url.searchParams.get('service') ?? '';
      if (fault?.kind === 'refuse') {
        refuse(socket, fault.status, fault.status === 403 ? 'Forbidden' : 'Refused');
        return true;
      }
      if (!accepts(url.searchParams.get('token') ?? undefined)) {
        refuse(socket, 401, 'Unauthorized');
        return true;
      }
      if (!known(service, url.searchParams.get('compose') === 'true')) {
        refuse(socket, 404, 'Not Found');
        return true;
      }
      seen.push({ service, compose: url.searchParams.get('compose') === 'true', certificate });
      server.handleUpgrade(request, socket, head, (ws) => welcome(ws, service));
      return true;
    },
    /** Appends `text` (one or more lines; a trailing newline is added when missing) and sends it to every open socket of the service. */
    write: (projectName: string, serviceName: string, text: string) => {
      const service = `${projectName}_${serviceName}`;
      const lines = text.replace(/\n$/, '').split('\n');
      const kept = logs.get(service) ?? [];
      kept.push(...lines);
      logs.set(service, kept.length > BACKLOG_LINES ? kept.slice(-BACKLOG_LINES) : kept);
      for (const [socket, of] of open) if (of === service) sendFrame(socket, `${lines.join('\n')}\n`);
    },
    setFault: (next: LogSocketFault | null) => {
      fault = next;
    },
    /** How many log sockets are open now (of one service, or all). */
    openSockets: (projectName?: string, serviceName?: string) =>
      [...open.values()].filter((service) => projectName === undefined || service === `${projectName}_${serviceName}`).length,
    /** Every log socket that was let in, oldest first. */
    accepted: (): readonly LogSocketRecord[] => seen,
    /** The token of every upgrade asked of the log route, in order, refused ones too. */
    askedWithTokens: (): readonly string[] => asked,
    /** Closes every log socket at once (the panel's end). */
    close: () => {
      for (const socket of open.keys()) socket.terminate();
      server.close();
    },
  };
}
