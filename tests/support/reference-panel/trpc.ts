import type { Answerer, IncomingCall, PanelContext } from './call.ts';
import { faulted } from './call.ts';
import { type Answer, parseJson, sendAnswer } from './http.ts';
import { ERROR_CODES, type ErrorCode, type Failure, OPERATIONS, type Outcome, perform, servedOperations } from './operations.ts';

/**
 * tRPC (v10, superjson) at `/api/trpc/<ns>.<proc>`: all that Easypanel 2.30 and before speaks.
 * Reads are `GET ?input=` + URL-encoded `{"json": input}` (the query may be left out), writes
 * `POST {"json": input}`; answers `{"result":{"data":{"json": …, "meta": …}}}`, errors
 * `{"error":{"json":{"message","code","data":{"code","httpStatus","path"}}}}` with that HTTP status.
 * From 2.31 on the route stays, but every GET is refused with 405 METHOD_NOT_SUPPORTED.
 */

/** A tRPC error envelope, sent with its httpStatus; `path` is the procedure when there is one. */
export function trpcError(code: ErrorCode, message: string, path?: string, extra: Record<string, unknown> = {}): Answer {
  const { status, jsonRpc } = ERROR_CODES[code];
  return {
    status,
    body: {
      error: { json: { message, code: jsonRpc, data: { code, httpStatus: status, ...(path === undefined ? {} : { path }), ...extra } } },
    },
  };
}

/** A tRPC result envelope; superjson lists in `meta` the top-level keys that hold dates. */
export function trpcResult(value: unknown, dates: readonly string[] = []): unknown {
  const meta = dates.length === 0 ? {} : { meta: { values: Object.fromEntries(dates.map((key) => [key, ['Date']])) } };
  return { result: { data: { json: value, ...meta } } };
}

function failure({ code, message, issues, reset }: Failure, path: string): Answer {
  // tRPC sends a zod refusal as the ZodError's message: its issues as indented JSON.
  const text = issues === undefined ? message : JSON.stringify(issues, null, 2);
  return trpcError(code, text, path, reset === undefined ? {} : { reset });
}

function answer(outcome: Outcome, path: string): Answer {
  if (outcome.kind === 'as-is') return outcome;
  if (outcome.kind === 'failure') return failure(outcome.failure, path);
  return { status: 200, body: trpcResult(outcome.data ?? null, outcome.dates) };
}

/** The input of a read: `?input=` JSON without its `json` wrapper; `invalid` when it is not JSON. */
function queryInput(search: URLSearchParams): { input: unknown } | 'invalid' {
  const text = search.get('input');
  if (text === null) return { input: undefined };
  const parsed = parseJson(text);
  return parsed === undefined ? 'invalid' : { input: (parsed as { json?: unknown } | null)?.json };
}

/** The tRPC routes; `refuseGet` as from 2.31 on. */
export function trpcAnswerer(refuseGet: boolean): Answerer {
  return async (context: PanelContext, call: IncomingCall) => {
    const { request, response, path } = call;
    if (!path.startsWith('/api/trpc/')) return false;
    const name = path.slice('/api/trpc/'.length);
    const method = request.method ?? '';
    if (refuseGet && method === 'GET') {
      sendAnswer(response, trpcError('METHOD_NOT_SUPPORTED', 'Method not supported', name));
      return true;
    }
    const operation = servedOperations(OPERATIONS, 'trpc', context).find((served) => served.name === name)?.operation;
    if (!operation) {
      const kind = method === 'GET' ? 'query' : 'mutation';
      sendAnswer(response, trpcError('NOT_FOUND', `No "${kind}"-procedure on path "${name}"`, name));
      return true;
    }
    if (await faulted(context, operation.route, call)) return true;

    if (method !== (operation.kind === 'query' ? 'GET' : 'POST')) {
      const message = `Unsupported ${method}-request to ${operation.kind} procedure at path "${name}"`;
      sendAnswer(response, trpcError('METHOD_NOT_SUPPORTED', message, name));
      return true;
    }
    let input: unknown;
    if (method === 'GET') {
      const read = queryInput(call.search);
      if (read === 'invalid') {
        sendAnswer(response, trpcError('BAD_REQUEST', 'Input is not JSON', name));
        return true;
      }
      input = read.input;
    } else {
      input = (parseJson(call.body) as { json?: unknown } | null | undefined)?.json;
    }
    sendAnswer(response, answer(perform(operation.route, input, { ...context, via: 'trpc', request }), name));
    return true;
  };
}

/** What a path that is no tRPC procedure gets from a 2.30 panel: NOT_FOUND naming no procedure. */
export const trpcNotFound = (): Answer => trpcError('NOT_FOUND', 'Not found');
