import { PanelError } from '../../shared/errors.ts';
import { loginUrl } from './address.ts';
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
  loginPath: string;
  tokenField: string | null;
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
): Promise<string> {
  // Before anything is sent: the email and password must go nowhere but under the panel's API.
  const url = loginUrl(panel.baseUrl, panel.loginPath);
  const action = 'logging in';
  const { email, password, code } = credentials;
  // The code is a secret of the request like the password: no message may quote it.
  const secrets = code === undefined ? [password, ...heldTokens] : [password, code, ...heldTokens];
  const response = await send(settings, secrets, {
    method: 'POST',
    url,
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(code === undefined ? { email, password } : { email, password, code }),
  });

  const refusal = secondFactorRefusal(response, code !== undefined);
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

  const body = parseJsonBody(response, action, secrets);
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

/** `GET {base}/getSession` with the bearer token; returns the session JSON. */
export async function requestSession(settings: RequestSettings, panel: PanelEndpoint, token: string, signal?: AbortSignal): Promise<unknown> {
  const action = 'reading the session';
  const secrets = [token];
  const response = await send(settings, secrets, {
    method: 'GET',
    url: `${panel.baseUrl}/getSession`,
    headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
    signal,
  });
  if (response.status === 401 || response.status === 403) {
    throw new PanelError(
      'UNAUTHORIZED',
      `The panel rejected the saved token (${describeStatus(response)}): the session expired or was revoked. Log in again.`,
    );
  }
  failOnSharedStatus(response, action);
  if (response.status === 404) {
    throw new PanelError(
      'BAD_RESPONSE',
      `The panel has no session endpoint at ${panel.baseUrl}/getSession (${describeStatus(response)}). ` +
        'Check that the address is the panel itself.',
    );
  }
  failUnlessSuccess(response, action, secrets);
  return parseJsonBody(response, action, secrets);
}

/** Sends a request; `secrets` are what it carries, so that no message shows them. */
function send(
  settings: RequestSettings,
  secrets: readonly string[],
  request: Pick<HttpRequest, 'method' | 'url' | 'headers' | 'body' | 'signal'>,
): Promise<HttpResponse> {
  return sendRequest(settings.fetch, {
    ...request,
    secrets,
    timeoutMs: settings.timeoutMs,
    maxBytes: settings.maxResponseBytes,
  });
}
