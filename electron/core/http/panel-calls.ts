import { PanelError } from '../../../shared/errors.ts';
import type { ApiStyle } from '../../../shared/types.ts';
import { apiUrl } from '../common/address.ts';
import { isRecord } from '../../../shared/guards.ts';
import { isPanelVersion } from '../../../shared/panel-version.ts';
import { callShape, envelopePayload, readEnvelope, readEnvelopeText, withEnvelopeStatus, type CallKind } from './api-style.ts';
import type { PanelEndpoint, RequestSettings } from './panel-endpoints.ts';
import { sendToPanel } from './panel-endpoints.ts';
import { describeStatus, failOnSharedStatus, failUnlessSuccess, MissingRouteError, parseJsonBody } from './panel-responses.ts';

/**
 * The operations Paneldeck calls with a panel's token, beyond the log in and the session read:
 * one name of ours each, with its route per generation (../shared/EASYPANEL.md), so that a new
 * Easypanel generation is one new column here. `call` sends one in the panel's own style.
 */
export interface Operation {
  kind: CallKind;
  /** What the operation does, as messages say it ("reading the version"). */
  doing: string;
  routes: Readonly<Record<ApiStyle, string>>;
}

export const OPERATIONS = {
  getVersion: {
    kind: 'query',
    doing: 'reading the version',
    routes: { plain: '/getUpdateStatus', rpc: '/rpc/update/getStatus', trpc: '/trpc/update.getStatus' },
  },
  logOut: {
    kind: 'mutation',
    doing: 'logging out at the panel',
    routes: { plain: '/logout', rpc: '/rpc/auth/logout', trpc: '/trpc/auth.logout' },
  },
} as const satisfies Record<string, Operation>;

export type OperationName = keyof typeof OPERATIONS;

export { MissingRouteError };

/**
 * Calls `name` on the panel with its token, in the style `style` (default the panel's), and returns
 * the answer's payload unwrapped from its envelope. Fails only with `PanelError`: UNAUTHORIZED for
 * a 401/403, BAD_RESPONSE (naming the route) for a 404/405, and the shared statuses' codes.
 */
export async function callPanel(
  settings: RequestSettings,
  panel: PanelEndpoint,
  token: string,
  name: OperationName,
  input?: unknown,
  options: { style?: ApiStyle; signal?: AbortSignal } = {},
): Promise<unknown> {
  const operation: Operation = OPERATIONS[name];
  const style = options.style ?? panel.apiStyle;
  const url = apiUrl(panel.baseUrl, operation.routes[style], 'route');
  const shape = callShape(style, operation.kind, input);
  const secrets = [token];
  const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'application/json' };
  if (shape.body !== undefined) headers['content-type'] = 'application/json';
  const sent = await sendToPanel(settings, secrets, panel, {
    method: shape.method,
    url: `${url}${shape.query}`,
    headers,
    body: shape.body,
    signal: options.signal,
  });
  const enveloped = style !== 'plain';
  const failed = sent.status < 200 || sent.status >= 300;
  const response = enveloped && failed ? withEnvelopeStatus(sent, readEnvelopeText(style, sent.text)) : sent;
  const fail = (answer: typeof response) => {
    if (answer.status === 401 || answer.status === 403) {
      throw new PanelError(
        'UNAUTHORIZED',
        `The panel rejected the saved token (${describeStatus(answer)}) while ${operation.doing}. Log in again.`,
      );
    }
    failOnSharedStatus(answer, operation.doing);
    if (answer.status === 404 || answer.status === 405) {
      throw new MissingRouteError(
        `The panel has no ${shape.method} ${url} (${describeStatus(answer)}): it may be another Easypanel version.`,
      );
    }
    failUnlessSuccess(answer, operation.doing, secrets);
  };
  fail(response);
  // A call that returns nothing may answer 200 with an empty body (2.33).
  if (response.text.trim() === '') return null;
  const body = parseJsonBody(response, operation.doing, secrets);
  if (!enveloped) return body;
  const answer = readEnvelope(style, body);
  if (answer.kind === 'error') fail(withEnvelopeStatus(response, answer));
  return envelopePayload(style, answer, operation.doing);
}

/** The version an answer of `getVersion` names (`"2.32.2"`), or null when it names none. */
export function versionOf(answer: unknown): string | null {
  const version = isRecord(answer) ? answer.version : null;
  return isPanelVersion(version) ? version : null;
}

/** The generation a version speaks (2.33+ the public API, 2.31–2.32 the RPC layer, before: tRPC); null for no version. */
export function styleOfVersion(version: string | null): ApiStyle | null {
  const match = version === null ? null : /^(\d+)\.(\d+)/.exec(version);
  if (!match) return null;
  const [major, minor] = [Number(match[1]), Number(match[2])];
  if (major > 2 || (major === 2 && minor >= 33)) return 'plain';
  if (major === 2 && minor >= 31) return 'rpc';
  return 'trpc';
}

/** The order generations are probed in with a token: the newest first, since newer panels answer the older routes too. */
const VERSION_PROBES: readonly ApiStyle[] = ['plain', 'trpc', 'rpc'];

/**
 * Reads the panel's version with its token in its own style; when that style has no version route
 * (an upgraded or misjudged panel), probes the generations in EASYPANEL.md's order. Returns the
 * version and the style that answered, or null when no generation answered one. An UNAUTHORIZED is
 * thrown (the token is the problem, not the generation); other failures count as "no version".
 */
export async function findVersion(
  settings: RequestSettings,
  panel: PanelEndpoint,
  token: string,
  signal?: AbortSignal,
): Promise<{ version: string; style: ApiStyle } | null> {
  for (const style of [panel.apiStyle, ...VERSION_PROBES.filter((other) => other !== panel.apiStyle)]) {
    try {
      const version = versionOf(await callPanel(settings, panel, token, 'getVersion', undefined, { style, signal }));
      if (version !== null) return { version, style };
    } catch (error) {
      if (error instanceof PanelError && (error.code === 'UNAUTHORIZED' || error.code === 'CANCELLED')) throw error;
    }
  }
  return null;
}
