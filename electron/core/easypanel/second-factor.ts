import { CODE_REFUSED_MESSAGE, PanelError, TWO_FACTOR_REQUIRED_MESSAGE } from '../../../shared/contract/errors.ts';
import type { HttpResponse } from '../net/http-client.ts';
import { checkJsonShape, PANEL_ANSWER_LIMITS } from '../common/json-shape.ts';
import { asksForSecondFactor } from './token-field.ts';
import { isRecord } from '../../../shared/guards.ts';

/**
 * What a refused log in means when two-factor authentication is involved. Easypanel 2.33+ answers
 * 200 `{ twoFactorEnabled: true }` when the code is missing and 400 "Invalid Code" when it is
 * wrong; other panels answer 401, 403 or 422 and say so in their message or a flag.
 */

/** Statuses by which panels refuse a log in for what was typed. */
const REFUSALS = new Set([400, 401, 403, 422]);
/** Words of a message about the second factor rather than the password. */
const ABOUT_THE_CODE = /\b(code|otp|totp|2fa|two[\s-]?factor|mfa|authenticator|one[\s-]?time)\b/i;

export function twoFactorRequired(): PanelError {
  return new PanelError('TWO_FACTOR_REQUIRED', TWO_FACTOR_REQUIRED_MESSAGE);
}

/**
 * The error for a refusal about the second factor, or `null` when the refusal is about something
 * else (left to the usual handling). `codeSent` says whether the request carried a code.
 */
export function secondFactorRefusal(response: HttpResponse, codeSent: boolean): PanelError | null {
  if (!REFUSALS.has(response.status)) return null;
  const body = readJson(response.text);
  if (codeSent) {
    // A 400 to a request with a code is Easypanel's wrong code, whatever its wording.
    if (response.status === 400 || messagesOf(body).some((message) => ABOUT_THE_CODE.test(message))) {
      return new PanelError('INVALID_CREDENTIALS', CODE_REFUSED_MESSAGE);
    }
    return null;
  }
  // Some panels refuse with a 401 or 403 that carries the flag Easypanel sends with a 200.
  return asksForSecondFactor(body) ? twoFactorRequired() : null;
}

/** The message-like strings of an error body; its `code` key is left out (`"code": "BAD_REQUEST"`). */
function messagesOf(body: unknown): string[] {
  if (!isRecord(body)) return [];
  const error = body.error;
  // tRPC's `{"error":{"json":{"message"}}}` too.
  const trpc = isRecord(error) && isRecord(error.json) ? error.json.message : undefined;
  const candidates = [body.message, body.detail, error, isRecord(error) ? error.message : undefined, trpc];
  return candidates.filter((value): value is string => typeof value === 'string').map((value) => value.slice(0, 1000));
}

function readJson(text: string): unknown {
  // An error body is read for a few words only: a hostile shape is not worth freezing main for.
  if (!checkJsonShape(text, PANEL_ANSWER_LIMITS).ok) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
