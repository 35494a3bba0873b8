import { isRecord } from '../../shared/guards.ts';
import { MAX_SAVED_REQUESTS, type SavedRequest } from './console-memory.ts';
import { maskedInputPaths, maskInput } from './secret-mask.ts';

/**
 * Saved requests as a JSON file to share: name, operation and input, with every secret-looking
 * value (the answers' rule: keys such as password, token, secret, key, otp, env) replaced by the
 * mask, so an export holds no secret; an imported request asks for those values again.
 */

export const TRANSFER_FORMAT = 'paneldeck-console-requests';
/** Pasted text larger than this is refused before it is parsed. */
export const MAX_TRANSFER_CHARS = 2 * 1024 * 1024;

export function exportRequests(requests: readonly SavedRequest[]): string {
  const listed = requests.map(({ name, operation, input }) => ({ name, operation, input: maskInput(input) }));
  return `${JSON.stringify({ format: TRANSFER_FORMAT, version: 1, requests: listed }, null, 2)}\n`;
}

export interface ImportedRequests {
  requests: Omit<SavedRequest, 'id'>[];
  /** Why entries were left out, one line each. */
  problems: string[];
  /** Requests that need secret values typed again, by name. */
  needSecrets: string[];
}

export function importRequests(text: string): ImportedRequests {
  const problems: string[] = [];
  if (text.length > MAX_TRANSFER_CHARS)
    return { requests: [], problems: ['The text is over 2 MiB: not a file of saved requests.'], needSecrets: [] };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { requests: [], problems: [`Not JSON: ${error instanceof Error ? error.message : String(error)}`], needSecrets: [] };
  }
  if (!isRecord(value) || value.format !== TRANSFER_FORMAT || !Array.isArray(value.requests)) {
    return { requests: [], problems: [`Not a file of saved requests (its "format" is not "${TRANSFER_FORMAT}").`], needSecrets: [] };
  }
  const requests: Omit<SavedRequest, 'id'>[] = [];
  value.requests.forEach((item: unknown, index: number) => {
    const name = isRecord(item) && typeof item.name === 'string' ? item.name.trim() : '';
    const operation = isRecord(item) && typeof item.operation === 'string' ? item.operation.trim() : '';
    if (!isRecord(item) || name === '' || name.length > 200 || operation === '' || operation.length > 500) {
      problems.push(`Request ${index + 1}: needs a name and an operation.`);
    } else if (requests.length >= MAX_SAVED_REQUESTS) {
      problems.push(`Request ${index + 1} (${name}): past the ${MAX_SAVED_REQUESTS} requests kept.`);
    } else {
      // Masked again: a file written by hand may hold a secret; it is not kept.
      requests.push({ name, operation, input: maskInput(item.input) });
    }
  });
  const needSecrets = requests.filter((request) => maskedInputPaths(request.input).length > 0).map((request) => request.name);
  return { requests, problems, needSecrets };
}
