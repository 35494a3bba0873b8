import { STYLE_PATHS } from '../common/style-paths.ts';
import { PanelError } from '../../../shared/errors.ts';
import type { CertificateInfo } from '../../../shared/errors.ts';
import type { ApiStyle } from '../../../shared/types.ts';
import { apiUrl } from '../common/address.ts';
import { logInBody, readTrpcAnswer, readTrpcText, sessionQuery, trpcPayload, withTrpcStatus } from './api-style.ts';
import { sendRequest, type FetchLike, type HttpRequest, type HttpResponse } from './http-client.ts';
import { describeStatus, failOnSharedStatus, failUnlessSuccess, parseJsonBody } from './panel-responses.ts';
import { secondFactorRefusal, twoFactorRequired } from './second-factor.ts';
import { asksForSecondFactor, describeTopLevelKeys, findToken } from './token-field.ts';

/** How requests to panels are sent: the same for every panel of a service. */
export interface RequestSettings {
  fetch: FetchLike;
  timeoutMs: number;
  maxResponseBytes: number;
}

export interface PanelEndpoint {
  baseUrl: string;
  apiStyle: ApiStyle;
  loginPath: string;
  sessionPath: string;
  tokenField: string | null;
  /** The certificate the operator trusted for the panel; null: the system decides. */
  trustedCertificate: CertificateInfo | null;
}

/** A log in's token, and the panel's endpoint when the log in found it speaks another API style. */
export interface LogInOutcome {
  token: string;
  foundStyle: PanelEndpoint | null;
}

/**
 * Logs in as the panel's API style says. A plain log in that finds no login (404 or 405) tries
 * the tRPC form once on the same origin, as Easypanel 2.30 and before speak it: when a tRPC
 * answer comes back (a token or a tRPC error alike), `found` is told the tRPC endpoint, to be
 * remembered on the panel, before the outcome is returned or thrown.
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
    if (panel.apiStyle !== 'plain' || !(error instanceof PanelError) || error.code !== 'LOGIN_ENDPOINT_NOT_FOUND') throw error;
    const trpc: PanelEndpoint = { ...panel, apiStyle: 'trpc', loginPath: STYLE_PATHS.trpc.login, sessionPath: STYLE_PATHS.trpc.session };
    const seen = { trpcAnswer: false };
    try {
      const token = await requestLogIn(settings, trpc, credentials, heldTokens, seen);
      await found(trpc);
      return token;
    } catch (second) {
      if (seen.trpcAnswer) {
        await found(trpc);
        throw second;
      }
      // Neither form: the first error names the login path the operator can correct.
      throw new PanelError(
        'LOGIN_ENDPOINT_NOT_FOUND',
        `${error.message} Paneldeck also tried the older tRPC form (${STYLE_PATHS.trpc.login}), which the panel does not have either.`,
      );
    }
  }
}

/** What a log in sends; `code` is the second factor, sent only once the panel asked for it. */
export interface LogInCredentials {
  email: string;
  password: string;
  code?: string | undefined;
}

/** `POST {base}{loginPath}` with `{ email, password, code? }`; returns the token from the answer. */
export async function requestLogIn(
  settings: RequestSettings,
  panel: PanelEndpoint,
  credentials: LogInCredentials,
  /** Tokens the panel may echo in its answer (its current sign-in), hidden like the password. */
  heldTokens: readonly string[] = [],
  /** Set when the answer was a tRPC envelope, whatever it said. */
  seen: { trpcAnswer: boolean } = { trpcAnswer: false },
): Promise<string> {
  // Before anything is sent: the email and password must go nowhere but under the panel's API.
  const url = apiUrl(panel.baseUrl, panel.loginPath, 'login');
  const trpc = panel.apiStyle === 'trpc';
  const action = 'logging in';
  const { email, password, code } = credentials;
  // The code is a secret of the request like the password: no message may quote it.
  const secrets = code === undefined ? [password, ...heldTokens] : [password, code, ...heldTokens];
  const sent = await send(settings, secrets, panel, {
    method: 'POST',
    url,
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: logInBody(panel.apiStyle, code === undefined ? { email, password } : { email, password, code }),
  });
  const errorAnswer = trpc && (sent.status < 200 || sent.status >= 300) ? readTrpcText(sent.text) : null;
  if (errorAnswer && errorAnswer.kind !== 'other') seen.trpcAnswer = true;
  const response = errorAnswer ? withTrpcStatus(sent, errorAnswer) : sent;

  failOnLogInStatus(response, url, panel, secrets, code !== undefined);

  const parsed = parseJsonBody(response, action, secrets);
  let body = parsed;
  if (trpc) {
    const answer = readTrpcAnswer(parsed);
    if (answer.kind !== 'other') seen.trpcAnswer = true;
    if (answer.kind === 'error') {
      // A tRPC error with a 2xx status: read as the status it stands for.
      failOnLogInStatus(withTrpcStatus(response, answer), url, panel, secrets, code !== undefined);
    }
    body = trpcPayload(answer, action);
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
 * `GET {base}{sessionPath}` with the bearer token (tRPC: with its `input` query); returns the
 * session JSON, unwrapped from a tRPC envelope.
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
  const sent = await send(settings, secrets, panel, {
    method: 'GET',
    url: `${url}${sessionQuery(panel.apiStyle)}`,
    headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
    signal,
  });
  const trpc = panel.apiStyle === 'trpc';
  const failed = sent.status < 200 || sent.status >= 300;
  const response = trpc && failed ? withTrpcStatus(sent, readTrpcText(sent.text)) : sent;
  failOnSessionStatus(response, url, panel, secrets);
  const body = parseJsonBody(response, action, secrets);
  if (!trpc) return body;
  const answer = readTrpcAnswer(body);
  if (answer.kind === 'error') failOnSessionStatus(withTrpcStatus(response, answer), url, panel, secrets);
  return trpcPayload(answer, action);
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
    throw new PanelError(
      'BAD_RESPONSE',
      `The panel has no session endpoint at GET ${url} (${describeStatus(response)}). ` +
        `Check that the address is the panel itself; if it reads the session at another path, set it under Advanced in the panel settings (now "${panel.sessionPath}").`,
    );
  }
  failUnlessSuccess(response, action, secrets);
}

/** Sends a request; `secrets` are what it carries, so that no message shows them. */
function send(
  settings: RequestSettings,
  secrets: readonly string[],
  panel: PanelEndpoint,
  request: Pick<HttpRequest, 'method' | 'url' | 'headers' | 'body' | 'signal'>,
): Promise<HttpResponse> {
  return sendRequest(settings.fetch, {
    ...request,
    secrets,
    trustedCertificate: panel.trustedCertificate?.sha256 ?? null,
    timeoutMs: settings.timeoutMs,
    maxBytes: settings.maxResponseBytes,
  });
}
