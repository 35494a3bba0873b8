import type { Answerer, IncomingCall, PanelContext } from './call.ts';
import { faulted } from './call.ts';
import { type Answer, parseJson, sendAnswer } from './http.ts';
import { ERROR_CODES, type ErrorCode, type Failure, OPERATIONS, type Outcome, perform, servedOperations } from './operations.ts';

/**
 * The RPC layer of Easypanel 2.31 and later (oRPC's RPC protocol) at `/api/rpc/<ns>/<proc>`:
 * `POST` with `{"json": input}` (no input: `{"json": null}`; an empty body is a 400), `GET` only
 * without input. Answers `{"json": data, "meta": [...]}`, where `meta` lists the values JSON cannot
 * carry (`[1, "createdAt"]`: a date) and is left out when there are none, as oRPC does; errors
 * `{"json":{"defined":false,"code","status","message","data"}}` with that HTTP status.
 */

/** oRPC's type number for a date in `meta`. */
const DATE = 1;

/** oRPC's answer to a body it cannot read (an empty one too). */
const MALFORMED = "Malformed request. Ensure the request body is properly formatted and the 'Content-Type' header is set correctly.";

/** An RPC-layer error; `data` is left out when there is none, as oRPC's JSON leaves out `undefined`. */
export function rpcError(code: ErrorCode, message: string, data?: Record<string, unknown>): Answer {
  const { status } = ERROR_CODES[code];
  return { status, body: { json: { defined: false, code, status, message, ...(data === undefined ? {} : { data }) } } };
}

function failure({ code, message, issues, reset }: Failure): Answer {
  // The envelope has room for `data`; what 2.31–2.32 put there for a refused input is a guess.
  if (issues !== undefined) return rpcError(code, message, { issues });
  return rpcError(code, message, reset === undefined ? undefined : { reset });
}

function answer(outcome: Outcome): Answer {
  if (outcome.kind === 'as-is') return outcome;
  if (outcome.kind === 'failure') return failure(outcome.failure);
  const meta = outcome.dates.length === 0 ? {} : { meta: outcome.dates.map((key) => [DATE, key]) };
  return { status: 200, body: { json: outcome.data ?? null, ...meta } };
}

/** The input of a POST: what `json` holds; `malformed` for an empty body or one that is not JSON. */
function postInput(body: string): { input: unknown } | 'malformed' {
  if (body.trim() === '') return 'malformed';
  const parsed = parseJson(body);
  if (parsed === undefined) return 'malformed';
  return { input: (parsed as { json?: unknown } | null)?.json };
}

export const answerRpc: Answerer = async (context: PanelContext, call: IncomingCall) => {
  const { request, response, path } = call;
  if (!path.startsWith('/api/rpc/')) return false;
  const name = path.slice('/api/rpc/'.length);
  const operation = servedOperations(OPERATIONS, 'rpc', context).find((served) => served.name === name)?.operation;
  if (!operation) {
    sendAnswer(response, rpcNotFound());
    return true;
  }
  if (await faulted(context, operation.route, call)) return true;

  let input: unknown;
  if (request.method === 'POST') {
    const read = postInput(call.body);
    if (read === 'malformed') {
      sendAnswer(response, rpcError('BAD_REQUEST', MALFORMED));
      return true;
    }
    input = read.input;
  } else if (request.method !== 'GET') {
    sendAnswer(response, rpcError('METHOD_NOT_SUPPORTED', 'Method not supported'));
    return true;
  }
  // A GET carries no input (2.31 broke every read with input): an operation that needs one refuses it.
  sendAnswer(response, answer(perform(operation.route, input, { ...context, via: 'rpc', request })));
  return true;
};

/** What a path that is no operation gets from a 2.31–2.32 panel (a guess: no source shows it). */
export const rpcNotFound = (): Answer => rpcError('NOT_FOUND', 'Not found');
