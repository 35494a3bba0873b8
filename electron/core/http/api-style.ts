import { PanelError } from '../../../shared/errors.ts';
import type { ApiStyle } from '../../../shared/types.ts';
import type { HttpResponse } from './http-client.ts';
import { checkJsonShape, PANEL_ANSWER_LIMITS } from '../common/json-shape.ts';
import { isRecord } from '../../../shared/guards.ts';

/**
 * The two ways an Easypanel speaks its API. `plain` (2.33+, the specified API) sends and answers
 * plain JSON. `trpc` (2.30 and before) puts procedures under `/trpc/`, wraps what is sent in
 * `{"json": ...}`, answers `{"result":{"data":{"json": ...}}}`, and reports errors as
 * `{"error":{"json":{"message","code","data":{"code","httpStatus"}}}}`.
 */

/** The body of a log in. */
export function logInBody(style: ApiStyle, fields: Record<string, unknown>): string {
  return JSON.stringify(style === 'trpc' ? { json: fields } : fields);
}

// The session read's query string is shared with the window (its "Copy as curl").
export { sessionQuery } from '../../../shared/session-url.ts';

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

/** What a tRPC answer is: a result, an error, or not tRPC at all. */
export type TrpcAnswer = { kind: 'result'; value: unknown } | { kind: 'error'; status: number | null } | { kind: 'other' };

/** Reads the envelope of a tRPC answer's text (an error answer, checked for a hostile shape first). */
export function readTrpcText(text: string): TrpcAnswer {
  if (!checkJsonShape(text, PANEL_ANSWER_LIMITS).ok) return { kind: 'other' };
  try {
    return readTrpcAnswer(JSON.parse(text));
  } catch {
    return { kind: 'other' };
  }
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
 * The answer with the status its tRPC error stands for, so that it means what the same error from
 * a plain panel means (a 200 carrying UNAUTHORIZED is a 401). Other answers are returned as they are.
 */
export function withTrpcStatus(response: HttpResponse, answer: TrpcAnswer): HttpResponse {
  if (answer.kind !== 'error' || answer.status === null || answer.status === response.status) return response;
  return { ...response, status: answer.status };
}

/** The payload of a successful tRPC answer, or `BAD_RESPONSE` saying the panel did not answer as tRPC. */
export function trpcPayload(answer: TrpcAnswer, action: string): unknown {
  if (answer.kind === 'result') return answer.value;
  throw new PanelError(
    'BAD_RESPONSE',
    `The panel's answer while ${action} is JSON but not a tRPC answer. ` +
      'This panel may speak the plain API: set API style to Plain under Advanced in the panel settings.',
  );
}
