import { createServer, type IncomingMessage } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';

/**
 * An HTTP proxy on 127.0.0.1 that tunnels with CONNECT only (as a corporate proxy does for
 * WebSockets and https), recording what it was asked: the request line and headers it saw, the
 * bytes it carried. `refuseWith` makes it answer every CONNECT with that status instead.
 */

export interface TunnelRecord {
  /** The CONNECT request line as it arrived (`CONNECT host:port HTTP/1.1`). */
  requestLine: string;
  headers: IncomingMessage['rawHeaders'];
  /** Bytes carried from the client to the server, and back, so far. */
  up: number;
  down: number;
  closed: boolean;
}

export interface ConnectProxy {
  /** `127.0.0.1:<port>`: what a PAC answer names (`PROXY 127.0.0.1:<port>`). */
  address: string;
  tunnels: TunnelRecord[];
  /** From now on every CONNECT is answered with this status (407, 502); null tunnels again. */
  refuseWith(status: number | null): void;
  /** Tunnels open now. */
  open(): number;
  close(): Promise<void>;
}

const REASONS: Record<number, string> = { 407: 'Proxy Authentication Required', 502: 'Bad Gateway', 403: 'Forbidden' };

export async function startConnectProxy(): Promise<ConnectProxy> {
  const tunnels: TunnelRecord[] = [];
  const sockets = new Set<Socket>();
  let refusal: number | null = null;
  const server = createServer((_request, response) => response.writeHead(405).end());
  server.on('connect', (request: IncomingMessage, client: Socket, head: Buffer) => {
    const record: TunnelRecord = {
      requestLine: `${request.method} ${request.url} HTTP/${request.httpVersion}`,
      headers: request.rawHeaders,
      up: head.length,
      down: 0,
      closed: false,
    };
    tunnels.push(record);
    sockets.add(client);
    client.on('error', () => client.destroy());
    client.once('close', () => {
      record.closed = true;
      sockets.delete(client);
    });
    if (refusal !== null) {
      client.end(`HTTP/1.1 ${refusal} ${REASONS[refusal] ?? 'Refused'}\r\ncontent-length: 0\r\n\r\n`);
      return;
    }
    const [host = '', port = ''] = (request.url ?? '').split(/:(?=\d+$)/);
    const upstream = connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      client.on('data', (chunk: Buffer) => {
        record.up += chunk.length;
      });
      upstream.on('data', (chunk: Buffer) => {
        record.down += chunk.length;
      });
      client.pipe(upstream);
      upstream.pipe(client);
    });
    sockets.add(upstream);
    upstream.once('close', () => {
      sockets.delete(upstream);
      client.destroy();
    });
    upstream.on('error', () => client.destroy());
    client.once('close', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    address: `127.0.0.1:${(server.address() as AddressInfo).port}`,
    tunnels,
    refuseWith: (status) => {
      refusal = status;
    },
    open: () => tunnels.filter((tunnel) => !tunnel.closed).length,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
