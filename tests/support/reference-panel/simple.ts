import type { Answerer, IncomingCall, PanelContext } from './call.ts';
import { faulted } from './call.ts';
import { nest, parseJson, sendJson } from './http.ts';
import { echoedToken } from './operations.ts';
import { codeAccepted, isTwoFactor } from './users.ts';

/**
 * The `simple` style, the reference panel's own minimal API: `POST /api/login` → `{ token }`,
 * `GET /api/getSession` → `{ user, issuedAt, expiresAt }`, errors as `{ error: "…" }`. It checks
 * no more than it needs to (unknown log-in fields are let through) and has no other routes.
 */

/** Easypanel's answers to a two-factor log in, which this style gives too. */
const PROMPT = { status: 200, body: { twoFactorEnabled: true } };
const INVALID_CODE = { status: 400, body: { code: 'BAD_REQUEST', status: 400, message: 'Invalid Code' } };

/** Every path is the simple style's: what it does not know is a 404. */
export const answerSimple: Answerer = async (context: PanelContext, call: IncomingCall) => {
  await answer(context, call);
  return true;
};

async function answer(context: PanelContext, call: IncomingCall): Promise<void> {
  const { options, state } = context;
  const { request, response, path } = call;
  const route = path === `/api${options.loginPath ?? '/login'}` ? 'login' : path === '/api/getSession' ? 'getSession' : null;
  if (route === null) return sendJson(response, 404, { error: 'Not found' });
  if (await faulted(context, route, call)) return;

  if (route === 'login') {
    if (request.method !== 'POST') return sendJson(response, 405, { error: 'Method not allowed' });
    const credentials = parseJson(call.body) as { email?: unknown; password?: unknown; code?: unknown } | undefined;
    if (typeof credentials?.email !== 'string' || typeof credentials.password !== 'string') {
      return sendJson(response, 400, { error: 'email and password are required' });
    }
    const user = state.users.find((candidate) => candidate.email === credentials.email && candidate.password === credentials.password);
    if (!user) return sendJson(response, 401, { error: 'Invalid email or password' });
    if (isTwoFactor(user)) {
      const prompt = options.twoFactorPrompt ?? PROMPT;
      if (credentials.code === undefined) return sendJson(response, prompt.status, prompt.body);
      if (!codeAccepted(user, credentials.code)) {
        const wrong = options.wrongCodeAnswer ?? INVALID_CODE;
        return sendJson(response, wrong.status, wrong.body);
      }
    }
    return sendJson(response, 200, nest((options.tokenPath ?? 'token').split('.'), state.issue(user)));
  }

  if (request.method !== 'GET') return sendJson(response, 405, { error: 'Method not allowed' });
  const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
  const issued = bearer === undefined ? undefined : state.session(bearer);
  if (!issued) return sendJson(response, 401, { error: 'Not authenticated' });
  if (issued.expiresAt <= Date.now()) return sendJson(response, 401, { error: 'Token expired' });
  const body = state.sessionBody();
  if (body !== undefined) return sendJson(response, 200, body);
  const { password: _password, twoFactorCode: _code, totpSecret: _secret, ...user } = issued.user;
  sendJson(response, 200, {
    user,
    issuedAt: new Date(issued.issuedAt).toISOString(),
    expiresAt: new Date(issued.expiresAt).toISOString(),
    ...echoedToken(options, bearer),
  });
}
