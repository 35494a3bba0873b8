import { GENERATION_PATHS } from '../common/generation-paths.ts';
import { PanelError } from '../../../shared/contract/errors.ts';
import type { CertificateInfo } from '../../../shared/contract/errors.ts';
import type { Generation } from '../../../shared/types.ts';
import { apiUrl } from '../common/address.ts';
import { callShape, envelopePayload, logInBody, readEnvelope, readEnvelopeText, withEnvelopeStatus } from './generation-wire.ts';
import { sendRequest, type FetchLike, type HttpRequest, type HttpResponse } from '../net/http-client.ts';
import type { ProxyResolver } from '../net/proxy-tunnel.ts';
import { describeStatus, failOnSharedStatus, failUnlessSuccess, MissingRouteError, parseJsonBody } from './panel-responses.ts';
import { secondFactorRefusal, twoFactorRequired } from './second-factor.ts';
import { asksForSecondFactor, describeTopLevelKeys, findToken } from './token-field.ts';

/** How requests to panels are sent: the same for every panel of a service. */
export interface RequestSettings {
  fetch: FetchLike;
  timeoutMs: number;
  maxResponseBytes: number;
  /** The system's proxy, for connections the core makes itself (the log socket); `fetch` finds its own. */
  resolveProxy?: ProxyResolver | undefined;
}

export interface PanelEndpoint {
  baseUrl: string;
  generation: Generation;
  loginPath: string;
  sessionPath: string;
  tokenField: string | null;
  /** The certificate the operator trusted for the panel; null: the system decides. */
  trustedCertificate: CertificateInfo | null;
}

/** A log in's token, and the panel's endpoint when the log in found it speaks another generation. */
export interface LogInOutcome {
  token: string;
  foundStyle: PanelEndpoint | null;
}

/** The generations a log in at the default paths tries, newest first (a 2.33 panel answers the older routes too). */
const FINDING_ORDER: readonly Generation[] = ['public', 'rpc', 'trpc'];

/**
 * Logs in as the panel's generation says. A log in at the default paths that finds no login (404
 * or 405) tries the older generations' log-in routes in turn on the same origin (2.31–2.32's RPC
 * layer, then 2.30's tRPC), the password in the body of each, to no route but a log in: when an
 * answer in that generation comes back (a token or an error alike), `found` is told the endpoint, to
 * be remembered on the panel, before the outcome is returned or thrown.
 */
export async function logInFindingStyle(
  settings: RequestSettings,
  panel: PanelEndpoint,
  credentials: LogInCredentials,
  heldTokens: readonly string[],
  found: (endpoint: PanelEndpoint) => Promise<void>,
): Promise<string> {
  try {
    return await requestLogIn(settings, panel, credentials, heldTokens);
  } catch (error) {
    if (!(error instanceof PanelError) || error.code !== 'LOGIN_ENDPOINT_NOT_FOUND') throw error;
    // Paths the operator set are theirs: a 404 there says that path is wrong, and neither the
    // password goes to a route they did not name nor do their paths get replaced.
    if (!usesDefaultPaths(panel)) throw error;
    const tried = [panel.generation];
    for (const generation of FINDING_ORDER) {
      if (tried.includes(generation)) continue;
      tried.push(generation);
      const other = endpointInGeneration(panel, generation);
      const seen = { styledAnswer: false };
      try {
        const token = await requestLogIn(settings, other, credentials, heldTokens, seen);
        await found(other);
        return token;
      } catch (next) {
        if (seen.styledAnswer) {
          await found(other);
          throw next;
        }
        if (!(next instanceof PanelError) || next.code !== 'LOGIN_ENDPOINT_NOT_FOUND') throw next;
      }
    }
    // No form: the first error names the login path the operator can correct.
    const others = tried.slice(1).map((generation) => `${GENERATION_NAMES[generation]} (${GENERATION_PATHS[generation].login})`);
    throw new PanelError(
      'LOGIN_ENDPOINT_NOT_FOUND',
      `${error.message} Paneldeck also tried ${others.join(' and ')}, which the panel does not have either.`,
    );
  }
}

/** Whether the panel's log-in and session paths are its generation's defaults (none the operator set). */
export function usesDefaultPaths(panel: Pick<PanelEndpoint, 'generation' | 'loginPath' | 'sessionPath'>): boolean {
  return panel.loginPath === GENERATION_PATHS[panel.generation].login && panel.sessionPath === GENERATION_PATHS[panel.generation].session;
}

/** The panel spoken to in `generation`, at that generation's default paths. */
export function endpointInGeneration(panel: PanelEndpoint, generation: Generation): PanelEndpoint {
  return { ...panel, generation, loginPath: GENERATION_PATHS[generation].login, sessionPath: GENERATION_PATHS[generation].session };
}

/** The generations as the messages name them. */
const GENERATION_NAMES: Readonly<Record<Generation, string>> = {
  public: 'the public API of Easypanel 2.33+',
  rpc: 'the RPC form of Easypanel 2.31–2.32',
  trpc: 'the older tRPC form',
};

/**
 * What a log in sends; `code` is the second factor, sent only once the panel asked for it;
 * `rememberMe` asks the panel for its long session ("Keep me signed in").
 */
export interface LogInCredentials {
  email: string;
  password: string;
  code?: string | undefined;
  /** Sent as `rememberMe: true` (a long session) when set; left out otherwise. */
  rememberMe?: boolean | undefined;
}

/**
 * The fields of a log in's input, as Easypanel takes them (`{email, password, rememberMe?, code?}`,
 * no others): `rememberMe` only when asked for, `code` only once the panel asked for one.
 */
export function logInFields({ email, password, code, rememberMe }: LogInCredentials): Record<string, unknown> {
  const fields: Record<string, unknown> = { email, password };
  if (rememberMe === true) fields.rememberMe = true;
  if (code !== undefined) fields.code = code;
  return fields;
}

/** `POST {base}{loginPath}` with `{ email, password, rememberMe?, code? }`; returns the token from the answer. */
export async function requestLogIn(
  settings: RequestSettings,
  panel: PanelEndpoint,
  credentials: LogInCredentials,
  /** Tokens the panel may echo in its answer (its current sign-in), hidden like the password. */
  heldTokens: readonly string[] = [],
  /** Set when the answer was in the panel's generation's envelope (tRPC, RPC), whatever it said. */
  seen: { styledAnswer: boolean } = { styledAnswer: false },
): Promise<string> {
  // Before anything is sent: the email and password must go nowhere but under the panel's API.
  const url = apiUrl(panel.baseUrl, panel.loginPath, 'login');
  const generation = panel.generation;
  const enveloped = generation !== 'public';
  const action = 'logging in';
  const { password, code } = credentials;
  // The code is a secret of the request like the password: no message may quote it.
  const secrets = code === undefined ? [password, ...heldTokens] : [password, code, ...heldTokens];
  const sent = await sendToPanel(settings, secrets, panel, {
    method: 'POST',
    url,
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: logInBody(panel.generation, logInFields(credentials)),
  });
  const errorAnswer = enveloped && (sent.status < 200 || sent.status >= 300) ? readEnvelopeText(generation, sent.text) : null;
  if (errorAnswer && errorAnswer.kind !== 'other') seen.styledAnswer = true;
  const response = errorAnswer ? withEnvelopeStatus(sent, errorAnswer) : sent;

  failOnLogInStatus(response, url, panel, secrets, code !== undefined);

  const parsed = parseJsonBody(response, action, secrets);
  let body = parsed;
  if (enveloped) {
    const answer = readEnvelope(generation, parsed);
    if (answer.kind !== 'other') seen.styledAnswer = true;
    if (answer.kind === 'error') {
      // An error envelope with a 2xx status: read as the status it stands for.
      failOnLogInStatus(withEnvelopeStatus(response, answer), url, panel, secrets, code !== undefined);
    }
    body = envelopePayload(generation, answer, action);
  }
  const search = findToken(body, panel.tokenField);
  if (search.found) return search.token;
  if (asksForSecondFactor(body)) throw twoFactorRequired();
  const keys = describeTopLevelKeys(search.topLevelKeys, secrets);
  throw new PanelError(
    'NO_TOKEN_IN_RESPONSE',
    panel.tokenField
      ? `The login answer has no text at "${panel.tokenField}" (its top-level keys: ${keys}). ` +
          'Correct the token field under Advanced in the panel settings.'
      : `The login answer has no token in the usual places (its top-level keys: ${keys}). ` +
          'Set the token field (for example data.auth.token) under Advanced in the panel settings.',
  );
}

/** Fails with what a log in answer's status means; returns for a 2xx. */
function failOnLogInStatus(response: HttpResponse, url: string, panel: PanelEndpoint, secrets: readonly string[], codeSent: boolean): void {
  const action = 'logging in';
  const refusal = secondFactorRefusal(response, codeSent);
  if (refusal) throw refusal;
  if (response.status === 401 || response.status === 403) {
    throw new PanelError(
      'INVALID_CREDENTIALS',
      `The panel did not accept this email and password (${describeStatus(response)}). Check them and try again.`,
    );
  }
  if (response.status === 404 || response.status === 405) {
    throw new PanelError(
      'LOGIN_ENDPOINT_NOT_FOUND',
      `The panel has no login at POST ${url} (${describeStatus(response)}). ` +
        `If this panel logs in at another path, set it under Advanced in the panel settings (now "${panel.loginPath}").`,
    );
  }
  failOnSharedStatus(response, action);
  failUnlessSuccess(response, action, secrets);
}

/**
 * The session read, `GET {base}{sessionPath}` with the bearer token (tRPC: with its `input`
 * query; the RPC layer: a POST of `{"json": null}`); returns the session JSON, unwrapped from its envelope.
 */
export async function requestSession(
  settings: RequestSettings,
  panel: PanelEndpoint,
  token: string,
  signal?: AbortSignal,
): Promise<unknown> {
  const action = 'reading the session';
  const secrets = [token];
  // Checked again here: the token must go nowhere but under the panel's API.
  const url = apiUrl(panel.baseUrl, panel.sessionPath, 'session');
  const generation = panel.generation;
  const shape = callShape(generation, 'query', undefined);
  const sent = await sendToPanel(settings, secrets, panel, {
    method: shape.method,
    url: `${url}${shape.query}`,
    headers:
      shape.body === undefined
        ? { authorization: `Bearer ${token}`, accept: 'application/json' }
        : { authorization: `Bearer ${token}`, accept: 'application/json', 'content-type': 'application/json' },
    body: shape.body,
    signal,
  });
  const enveloped = generation !== 'public';
  const failed = sent.status < 200 || sent.status >= 300;
  const response = enveloped && failed ? withEnvelopeStatus(sent, readEnvelopeText(generation, sent.text)) : sent;
  failOnSessionStatus(response, url, panel, secrets);
  const body = parseJsonBody(response, action, secrets);
  if (!enveloped) return body;
  const answer = readEnvelope(generation, body);
  if (answer.kind === 'error') failOnSessionStatus(withEnvelopeStatus(response, answer), url, panel, secrets);
  return envelopePayload(generation, answer, action);
}

/** Fails with what a session answer's status means; returns for a 2xx. */
function failOnSessionStatus(response: HttpResponse, url: string, panel: PanelEndpoint, secrets: readonly string[]): void {
  const action = 'reading the session';
  if (response.status === 401 || response.status === 403) {
    throw new PanelError(
      'UNAUTHORIZED',
      `The panel rejected the saved token (${describeStatus(response)}): the session expired or was revoked. Log in again.`,
    );
  }
  failOnSharedStatus(response, action);
  if (response.status === 404 || response.status === 405) {
    throw new MissingRouteError(
      `The panel has no session endpoint at ${callShape(panel.generation, 'query', undefined).method} ${url} (${describeStatus(response)}). ` +
        `Check that the address is the panel itself; if it reads the session at another path, set it under Advanced in the panel settings (now "${panel.sessionPath}").`,
    );
  }
  failUnlessSuccess(response, action, secrets);
}

/**
 * Sends a request to the panel (confined to its API, with its pinned certificate); `secrets` are
 * what it carries, so that no message shows them. The time and size limits are the settings'
 * unless the request names its own (an operation's deadline, a large list).
 */
export function sendToPanel(
  settings: RequestSettings,
  secrets: readonly string[],
  panel: PanelEndpoint,
  request: Pick<HttpRequest, 'method' | 'url' | 'headers' | 'body' | 'signal'> &
    Partial<Pick<HttpRequest, 'timeoutMs' | 'maxBytes' | 'keepStartOfLarger'>>,
): Promise<HttpResponse> {
  return sendRequest(settings.fetch, {
    timeoutMs: settings.timeoutMs,
    maxBytes: settings.maxResponseBytes,
    ...request,
    secrets,
    trustedCertificate: panel.trustedCertificate?.sha256 ?? null,
    within: panel.baseUrl,
  });
}
