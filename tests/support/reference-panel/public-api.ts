import { readFileSync } from 'node:fs';
import { join } from 'node:path';
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
  // docs/easypanel-api.md shows `data.zodErrors` but not its inside: zod's `flatten()` is a guess.
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
  const served = servedOperations(OPERATIONS, 'public', context).find(({ operation: candidate, name }) =>
    candidate.route === 'login' ? path === loginPath : path === `/api/${name}`,
  );
  if (!served) return false;
  const { operation, name } = served;
  if (await faulted(context, operation.route, call)) return true;

  if (request.method !== (operation.kind === 'query' ? 'GET' : 'POST')) {
    sendAnswer(response, publicError('METHOD_NOT_SUPPORTED', 'Method not supported'));
    return true;
  }
  // A write's input is its plain JSON body (a log out may come with none); a read's, its query parameters, as strings.
  const login = operation.route === 'login';
  const refused = operation.kind === 'query' ? uncoercedParameter(name, call.search) : null;
  if (refused) {
    sendAnswer(response, failure(refused));
    return true;
  }
  const input = operation.kind === 'mutation' ? parseJson(call.body) : Object.fromEntries(call.search);
  const tokenPath = login ? (context.options.tokenPath ?? 'token').split('.') : null;
  const outcome = perform(operation.route, input, { ...context, via: 'public', request });
  sendAnswer(response, answer(outcome instanceof Promise ? await outcome : outcome, tokenPath));
  return true;
};

export const publicNotFound = (): Answer => publicError('NOT_FOUND', 'Not found');

/**
 * The parameters a real 2.33.1 GET types as other than text (its catalogue, a test fixture):
 * 2.33 validates a GET's parameters without coercion, so `limit=5` is refused there as it is here.
 */
const TYPED_PARAMETERS: ReadonlyMap<string, ReadonlyMap<string, string>> = new Map(
  Object.entries(
    (
      JSON.parse(readFileSync(join(import.meta.dirname, '..', 'fixtures', 'easypanel-2.33.1-operations.json'), 'utf8')) as {
        operations: Record<string, { params?: Record<string, string> }>;
      }
    ).operations,
  ).flatMap(([name, { params }]) => {
    const typed = Object.entries(params ?? {}).filter(([, type]) => type !== 'string');
    return typed.length === 0 ? [] : [[name, new Map(typed)] as const];
  }),
);

/** Why 2.33 refuses a GET's query (a number or a list sent as text), as zod would say it; null when it does not. */
function uncoercedParameter(name: string, search: URLSearchParams): Failure | null {
  const typed = TYPED_PARAMETERS.get(name);
  for (const [key, type] of typed ?? []) {
    if (!search.has(key)) continue;
    return {
      code: 'BAD_REQUEST',
      message: 'Input validation failed',
      issues: [{ code: 'invalid_type', path: [key], message: `Expected ${type}, received string`, expected: type, received: 'string' }],
    };
  }
  return null;
}
