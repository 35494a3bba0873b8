import { PanelError } from '../../../shared/contract/errors.ts';
import type { Generation } from '../../../shared/types.ts';
import type { HttpResponse } from '../net/http-client.ts';
import { checkJsonShape, PANEL_ANSWER_LIMITS } from '../common/json-shape.ts';
import { isRecord } from '../../../shared/guards.ts';

/**
 * The three ways an Easypanel speaks its API (docs/easypanel-api.md):
 * - `public` (2.33+, the public API): plain JSON in and out, reads as GET, writes as POST;
 * - `rpc` (2.31 and 2.32): `/rpc/<ns>/<proc>`, every call a POST of `{"json": input}`, answers
 *   `{"json": data, "meta": [...]}`, errors `{"json":{"defined":false,"code","status","message"}}`;
 * - `trpc` (2.30 and before): `/trpc/<ns>.<proc>`, reads as GET with `?input=`, writes as POST of
 *   `{"json": input}`, answers `{"result":{"data":{"json": ...}}}`, errors
 *   `{"error":{"json":{"message","code","data":{"code","httpStatus"}}}}`.
 */

/** Whether a call reads (a query) or changes something (a mutation): tRPC sends them differently. */
export type CallKind = 'query' | 'mutation';

/** How one call goes on the wire: the method, what follows the path, and the body. */
export interface CallShape {
  method: 'GET' | 'POST';
  query: string;
  body?: string;
}

/** How a call with `input` (none: `undefined`) is sent in `generation`. */
export function callShape(generation: Generation, kind: CallKind, input: unknown): CallShape {
  if (generation === 'rpc') return { method: 'POST', query: '', body: JSON.stringify({ json: input ?? null }) };
  if (kind === 'mutation')
    return { method: 'POST', query: '', body: JSON.stringify(generation === 'trpc' ? { json: input ?? null } : (input ?? {})) };
  if (generation === 'trpc') return { method: 'GET', query: `?input=${encodeURIComponent(JSON.stringify({ json: input ?? null }))}` };
  return { method: 'GET', query: flatQuery(input) };
}

/**
 * A 2.33 read's input as flat query parameters (`?id=…`). Only text goes: 2.33 checks parameters
 * without coercion, so a number or a list cannot travel this way (the table sends such reads
 * through the RPC layer instead, `RequestRoute.via`).
 */
function flatQuery(input: unknown): string {
  if (!isRecord(input)) return '';
  const texts = Object.entries(input).filter((entry): entry is [string, string] => typeof entry[1] === 'string');
  return texts.length === 0 ? '' : `?${new URLSearchParams(texts).toString()}`;
}

/** The body of a log in. */
export function logInBody(generation: Generation, fields: Record<string, unknown>): string {
  return callShape(generation, 'mutation', fields).body!;
}

/** The HTTP status each tRPC error code stands for, for servers that do not say `httpStatus`. */
const TRPC_CODE_STATUS: Readonly<Record<string, number>> = {
  PARSE_ERROR: 400,
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_SUPPORTED: 405,
  TIMEOUT: 408,
  CONFLICT: 409,
  PRECONDITION_FAILED: 412,
  PAYLOAD_TOO_LARGE: 413,
  UNPROCESSABLE_CONTENT: 422,
  TOO_MANY_REQUESTS: 429,
  CLIENT_CLOSED_REQUEST: 499,
  INTERNAL_SERVER_ERROR: 500,
  NOT_IMPLEMENTED: 501,
  BAD_GATEWAY: 502,
  SERVICE_UNAVAILABLE: 503,
  GATEWAY_TIMEOUT: 504,
};

/** What an answer's envelope is: a result, an error (with the HTTP status it stands for), or not that generation's shape at all. */
export type EnvelopeAnswer = { kind: 'result'; value: unknown } | { kind: 'error'; status: number | null } | { kind: 'other' };
/** The tRPC form of an envelope answer (kept as a name: tests and the reader use it). */
export type TrpcAnswer = EnvelopeAnswer;

/** Reads the envelope of a parsed answer in `generation`; a plain answer is its own result. */
export function readEnvelope(generation: Generation, parsed: unknown): EnvelopeAnswer {
  if (generation === 'trpc') return readTrpcAnswer(parsed);
  if (generation === 'rpc') return readRpcAnswer(parsed);
  return { kind: 'result', value: parsed };
}

/** Reads the envelope of an error answer's text in `generation`, checked for a hostile shape first. */
export function readEnvelopeText(generation: Generation, text: string): EnvelopeAnswer {
  if (generation === 'public' || !checkJsonShape(text, PANEL_ANSWER_LIMITS).ok) return { kind: 'other' };
  try {
    return readEnvelope(generation, JSON.parse(text));
  } catch {
    return { kind: 'other' };
  }
}

/**
 * Reads an RPC-layer answer: `{"json": data}` is a result; `{"json": {"defined": false, "code",
 * "status", "message"}}` an error (by `status`, else by its tRPC-like `code`).
 */
export function readRpcAnswer(parsed: unknown): EnvelopeAnswer {
  if (!isRecord(parsed) || !Object.hasOwn(parsed, 'json')) return { kind: 'other' };
  const json = parsed.json;
  if (isRecord(json) && json.defined === false && typeof json.code === 'string')
    return { kind: 'error', status: trpcStatus({ httpStatus: json.status, code: json.code }) };
  return { kind: 'result', value: json };
}

/** Reads the envelope of a parsed tRPC answer; a batch answer (an array of one) by its entry. */
export function readTrpcAnswer(parsed: unknown): TrpcAnswer {
  const body = Array.isArray(parsed) && parsed.length === 1 ? parsed[0] : parsed;
  if (!isRecord(body)) return { kind: 'other' };
  const result = isRecord(body.result) ? body.result : null;
  if (result && 'data' in result) {
    // With the superjson transformer (Easypanel) the data is wrapped once more in `json`.
    const data = result.data;
    return { kind: 'result', value: isRecord(data) && 'json' in data ? data.json : data };
  }
  const error = isRecord(body.error) ? (isRecord(body.error.json) ? body.error.json : body.error) : null;
  if (error && isRecord(error.data)) return { kind: 'error', status: trpcStatus(error.data) };
  return { kind: 'other' };
}

function trpcStatus(data: Record<string, unknown>): number | null {
  const { httpStatus, code } = data;
  if (typeof httpStatus === 'number' && Number.isInteger(httpStatus) && httpStatus >= 400 && httpStatus <= 599) return httpStatus;
  return typeof code === 'string' ? (TRPC_CODE_STATUS[code] ?? null) : null;
}

/**
 * The answer with the status its envelope's error stands for, so that it means what the same error
 * from a plain panel means (a 200 carrying UNAUTHORIZED is a 401). Other answers are returned as they are.
 */
export function withEnvelopeStatus(response: HttpResponse, answer: EnvelopeAnswer): HttpResponse {
  if (answer.kind !== 'error' || answer.status === null || answer.status === response.status) return response;
  return { ...response, status: answer.status };
}

/** The tRPC name of `withEnvelopeStatus`. */
export const withTrpcStatus = withEnvelopeStatus;

const GENERATION_WORDS: Readonly<Record<Generation, string>> = { public: 'a plain', rpc: 'an RPC-layer', trpc: 'a tRPC' };

/** The payload of a successful answer in `generation`, or `BAD_RESPONSE` saying the panel did not answer in that generation. */
export function envelopePayload(generation: Generation, answer: EnvelopeAnswer, action: string): unknown {
  if (answer.kind === 'result') return answer.value;
  throw new PanelError(
    'BAD_RESPONSE',
    `The panel's answer while ${action} is JSON but not ${GENERATION_WORDS[generation]} answer. ` +
      'This panel may speak another Easypanel API: choose its generation under Advanced in the panel settings.',
  );
}
