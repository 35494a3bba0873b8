import type { Answerer } from './call.ts';
import type { Answer } from './http.ts';
import { OPERATIONS } from './operations.ts';
import { servedAtVersion } from './outcomes.ts';
import { answerPublic, publicError, publicNotFound } from './public-api.ts';
import { answerRpc, rpcError, rpcNotFound } from './rpc.ts';
import { answerSimple } from './simple.ts';
import { DEFAULT_VERSIONS } from './state.ts';
import { trpcAnswerer, trpcError, trpcNotFound } from './trpc.ts';
import type { PanelStyle } from './types.ts';

/**
 * What each style answers: its routes, tried in order (newer Easypanels keep answering the older
 * routes), and its words for a path it does not have and for its own failure.
 */
export interface StyleServer {
  /** For people: which panel this is. */
  label: string;
  answerers: readonly Answerer[];
  notFound(): Answer;
  internalError(): Answer;
}

const FAILED = 'Reference panel failed';

export const STYLE_SERVERS: Readonly<Record<PanelStyle, StyleServer>> = {
  simple: {
    label: "the reference panel's own simple API",
    answerers: [answerSimple],
    notFound: () => ({ status: 404, body: { error: 'Not found' } }),
    internalError: () => ({ status: 500, body: { error: FAILED } }),
  },
  trpc: {
    label: 'Easypanel 2.30 and before (tRPC)',
    answerers: [trpcAnswerer(false)],
    notFound: trpcNotFound,
    internalError: () => trpcError('INTERNAL_SERVER_ERROR', FAILED),
  },
  rpc: {
    label: 'Easypanel 2.31–2.32 (RPC layer; tRPC for writes only)',
    answerers: [answerRpc, trpcAnswerer(true)],
    notFound: rpcNotFound,
    internalError: () => rpcError('INTERNAL_SERVER_ERROR', FAILED),
  },
  public: {
    label: 'Easypanel 2.33+ (public API; also the RPC layer, and tRPC for writes only)',
    answerers: [answerPublic, answerRpc, trpcAnswerer(true)],
    notFound: publicNotFound,
    internalError: () => publicError('INTERNAL_SERVER_ERROR', FAILED),
  },
};

export const PANEL_STYLES = Object.keys(STYLE_SERVERS) as PanelStyle[];

/** The routes a style serves at a version (default its own), one `METHOD /path` a line, for people. */
export function describeRoutes(style: PanelStyle, loginPath = '/login', version = DEFAULT_VERSIONS[style]): string[] {
  const method = (kind: 'query' | 'mutation') => (kind === 'query' ? 'GET ' : 'POST');
  const served = OPERATIONS.filter((operation) => servedAtVersion(operation, version));
  const named = (via: 'trpc' | 'rpc' | 'public') => served.flatMap((operation) => (operation[via] === null ? [] : [operation]));
  const trpc = (writesOnly: boolean) =>
    named('trpc')
      .filter((operation) => !writesOnly || operation.kind === 'mutation')
      .map((operation) => `${method(operation.kind)} /api/trpc/${operation.trpc}`);
  const rpc = named('rpc').map((operation) => `POST /api/rpc/${operation.rpc}`);
  const flat = named('public').map(
    (operation) => `${method(operation.kind)} /api${operation.route === 'login' ? loginPath : `/${operation.public}`}`,
  );
  switch (style) {
    case 'simple':
      return [`POST /api${loginPath}`, 'GET  /api/getSession'];
    case 'trpc':
      return trpc(false);
    case 'rpc':
      return [...rpc, ...trpc(true)];
    case 'public':
      return [...flat, ...rpc, ...trpc(true)];
  }
}

/**
 * The generation an Easypanel of `version` speaks (2.33+ the public API, 2.31–2.32 the RPC layer,
 * before: tRPC), for a panel of `style` upgraded in place. The simple style is no Easypanel.
 */
export function easypanelStyleOf(style: PanelStyle, version: string): Exclude<PanelStyle, 'simple'> {
  const match = /^(\d+)\.(\d+)\./.exec(version);
  if (style === 'simple' || !match) throw new Error(`setVersion: cannot upgrade a ${style} panel to "${version}"`);
  const [major, minor] = [Number(match[1]), Number(match[2])];
  if (major > 2 || (major === 2 && minor >= 33)) return 'public';
  return major === 2 && minor >= 31 ? 'rpc' : 'trpc';
}
