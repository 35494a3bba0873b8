import { type IncomingMessage, request as httpRequest } from 'node:http';
import type { Socket } from 'node:net';
import { PanelError } from '../../../shared/contract/errors.ts';
import { describeConnectionFailure } from './connection-errors.ts';

/**
 * The system proxy for connections the core makes itself (the log socket): the app's HTTP requests
 * go through Chromium's network stack, which finds the proxy on its own; a socket over Node's net
 * and tls asks the same system through `ProxyResolver` and tunnels through an HTTP proxy with
 * CONNECT. Only `host:port` goes to the proxy in the clear (the CONNECT line); what follows (TLS
 * to the panel, judged as every https connection is) is the panel's and Paneldeck's alone.
 */

/**
 * The system's proxy for a URL, as a PAC answer: "DIRECT", "PROXY host:port", or several
 * separated by ";" in the order to try them. The app passes Electron's `session.resolveProxy`.
 * It is given the URL without its query: the token never reaches it.
 */
export type ProxyResolver = (url: string) => Promise<string>;

/** How a connection goes: straight to the panel, or through an HTTP proxy at `host:port` (`shown`). */
export type ProxyRoute = { kind: 'direct' } | { kind: 'http'; host: string; port: number; shown: string };

const DIRECT: ProxyRoute = { kind: 'direct' };

/**
 * The first entry of a PAC answer Paneldeck can use: DIRECT, or an HTTP proxy (PROXY or HTTP). An
 * answer naming only proxies it cannot use (SOCKS, HTTPS, QUIC) fails, naming them; it is not
 * silently skipped for a direct connection the answer does not offer. An empty answer is DIRECT.
 */
export function proxyRoute(answer: string, target: string): ProxyRoute {
  const entries = answer
    .split(';')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  if (entries.length === 0) return DIRECT;
  for (const entry of entries) {
    const [scheme = '', address = ''] = entry.split(/\s+/);
    const kind = scheme.toUpperCase();
    if (kind === 'DIRECT') return DIRECT;
    if ((kind === 'PROXY' || kind === 'HTTP') && address !== '') {
      const parsed = parseAddress(address);
      if (parsed) return { kind: 'http', ...parsed };
    }
  }
  // Each entry as its scheme and parsed address only: a malformed one may hold a proxy's password.
  const named = entries
    .map((entry) => {
      const [scheme = '', address = ''] = entry.split(/\s+/);
      const shown = parseAddress(address)?.shown;
      return `${scheme.toUpperCase().slice(0, 10)}${shown ? ` ${shown}` : ''}`;
    })
    .join('; ');
  throw new PanelError(
    'NETWORK',
    `The system's proxy settings send ${target} through ${named}, which Paneldeck's log connection cannot use (only an HTTP proxy or a direct connection).`,
  );
}

function parseAddress(address: string): { host: string; port: number; shown: string } | null {
  try {
    const url = new URL(`http://${address}`);
    if (url.username || url.password || url.pathname !== '/' || url.search) return null;
    const port = url.port === '' ? 80 : Number(url.port);
    // The brackets of an IPv6 address are the URL's, not the host's.
    return { host: url.hostname.replace(/^\[(.*)\]$/, '$1'), port, shown: url.host };
  } catch {
    return null;
  }
}

/** The route for `url` (given without its query), or DIRECT without a resolver. */
export async function findProxyRoute(resolve: ProxyResolver | undefined, url: URL): Promise<ProxyRoute> {
  if (!resolve) return DIRECT;
  let answer: string;
  try {
    answer = await resolve(`${url.origin}${url.pathname}`);
  } catch (error) {
    throw new PanelError('NETWORK', `Paneldeck could not learn the system's proxy for ${url.host}.`, { cause: error });
  }
  return proxyRoute(typeof answer === 'string' ? answer : '', url.host);
}

/**
 * Opens a tunnel to `authority` (`host:port`) through the HTTP proxy with CONNECT; resolves with
 * the socket once the proxy answered 2xx. A refusal (407, 502, ...) fails naming the proxy and
 * the panel's host, never more of the URL. `signal` aborts it.
 */
export function openTunnel(proxy: Extract<ProxyRoute, { kind: 'http' }>, authority: string, signal: AbortSignal): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const request = httpRequest({
      host: proxy.host,
      port: proxy.port,
      method: 'CONNECT',
      path: authority,
      headers: { host: authority },
      agent: false,
    });
    const abort = () => request.destroy();
    signal.addEventListener('abort', abort, { once: true });
    const settle = (outcome: () => void) => {
      signal.removeEventListener('abort', abort);
      outcome();
    };
    request.once('connect', (response: IncomingMessage, socket: Socket, head: Buffer) => {
      const status = response.statusCode ?? 0;
      if (status >= 200 && status < 300) {
        if (head.length > 0) socket.unshift(head);
        return settle(() => resolve(socket));
      }
      socket.destroy();
      const reason = (response.statusMessage ?? '').replace(/[^\x20-\x7e]/g, '').slice(0, 60);
      const asks = status === 407 ? ': it asks for a sign-in, which Paneldeck does not give it' : '';
      settle(() =>
        reject(
          new PanelError(
            'NETWORK',
            `The proxy ${proxy.shown} refused to connect to ${authority} (HTTP ${status}${reason ? ` ${reason}` : ''})${asks}. Check the system's proxy settings.`,
          ),
        ),
      );
    });
    request.once('error', (error) => {
      const failure = describeConnectionFailure(error, new URL(`http://${proxy.shown}`));
      settle(() =>
        reject(new PanelError(failure.code, `The proxy ${proxy.shown} could not be used: ${failure.message}`, { cause: error })),
      );
    });
    request.end();
  });
}
