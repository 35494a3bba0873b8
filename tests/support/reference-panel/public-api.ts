import type { Answerer, IncomingCall, PanelContext } from './call.ts';
import { faulted } from './call.ts';
import { type Answer, nest, parseJson, sendAnswer } from './http.ts';
import { flattenIssues } from './login-input.ts';
import { ERROR_CODES, type ErrorCode, type Failure, OPERATIONS, type Outcome, perform, servedOperations } from './operations.ts';

/**
 * Easypanel 2.33's public API at `/api/<name>`: reads are GETs, writes POSTs with the input as
 * plain JSON; the answer is the data itself (a call that returns nothing answers 200 with an empty
 * body), an error `{ code, status, message }` with that HTTP status, and `data` when there is more
 * to say (`zodErrors` for a refused input, `reset` for a 429).
 */

export function publicError(code: ErrorCode, message: string, data?: Record<string, unknown>): Answer {
  const { status } = ERROR_CODES[code];
  return { status, body: { code, status, message, ...(data === undefined ? {} : { data }) } };
}

function failure({ code, message, issues, reset }: Failure): Answer {
  // EASYPANEL.md shows `data.zodErrors` but not its inside: zod's `flatten()` is a guess.
  if (issues !== undefined) return publicError(code, message, { zodErrors: flattenIssues(issues) });
  return publicError(code, message, reset === undefined ? undefined : { reset });
}

/** `tokenPath`: where a log in's token goes (`ReferencePanelOptions.tokenPath`); null for other operations. */
function answer(outcome: Outcome, tokenPath: readonly string[] | null): Answer {
  if (outcome.kind === 'as-is') return outcome;
  if (outcome.kind === 'failure') return failure(outcome.failure);
  const token = (outcome.data as { token?: unknown } | undefined)?.token;
  return { status: 200, body: tokenPath !== null && typeof token === 'string' ? nest(tokenPath, token) : outcome.data };
}

export const answerPublic: Answerer = async (context: PanelContext, call: IncomingCall) => {
  const { request, response, path } = call;
  const loginPath = `/api${context.options.loginPath ?? '/login'}`;
  const operation = servedOperations(OPERATIONS, 'public', context).find(({ operation: candidate, name }) =>
    candidate.route === 'login' ? path === loginPath : path === `/api/${name}`,
  )?.operation;
  if (!operation) return false;
  if (await faulted(context, operation.route, call)) return true;

  if (request.method !== (operation.kind === 'query' ? 'GET' : 'POST')) {
    sendAnswer(response, publicError('METHOD_NOT_SUPPORTED', 'Method not supported'));
    return true;
  }
  // Only the log in takes input here; a log out may come with an empty body.
  const login = operation.route === 'login';
  const input = login ? parseJson(call.body) : undefined;
  const tokenPath = login ? (context.options.tokenPath ?? 'token').split('.') : null;
  sendAnswer(response, answer(perform(operation.route, input, { ...context, via: 'public', request }), tokenPath));
  return true;
};

export const publicNotFound = (): Answer => publicError('NOT_FOUND', 'Not found');
