/**
 * Easypanel's log-in input, `{ email, password, rememberMe?, code? }` and no other field, checked
 * the way a strict zod (v3) object checks it, so that a refusal carries zod's issues.
 */

export interface LogInInput {
  email: string;
  password: string;
  rememberMe?: boolean;
  code?: string;
}

/** One issue as zod v3 reports it. */
export interface ZodIssue {
  code: 'invalid_type' | 'unrecognized_keys';
  path: (string | number)[];
  message: string;
  expected?: string;
  received?: string;
  keys?: string[];
}

const FIELDS = { email: 'string', password: 'string', rememberMe: 'boolean', code: 'string' } as const;
const REQUIRED: ReadonlySet<string> = new Set(['email', 'password']);

/** The type name zod gives a value. */
function zodType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function invalidType(path: (string | number)[], expected: string, value: unknown): ZodIssue {
  const received = zodType(value);
  const message = received === 'undefined' ? 'Required' : `Expected ${expected}, received ${received}`;
  return { code: 'invalid_type', expected, received, path, message };
}

export function validateLogInInput(input: unknown): { ok: true; value: LogInInput } | { ok: false; issues: ZodIssue[] } {
  if (zodType(input) !== 'object') return { ok: false, issues: [invalidType([], 'object', input)] };
  const record = input as Record<string, unknown>;
  const issues: ZodIssue[] = [];
  for (const [field, expected] of Object.entries(FIELDS)) {
    const value = record[field];
    if (value === undefined && !REQUIRED.has(field)) continue;
    if (typeof value !== expected) issues.push(invalidType([field], expected, value));
  }
  const unknown = Object.keys(record).filter((key) => !Object.hasOwn(FIELDS, key));
  if (unknown.length > 0) {
    const quoted = unknown.map((key) => `'${key}'`).join(', ');
    issues.push({ code: 'unrecognized_keys', keys: unknown, path: [], message: `Unrecognized key(s) in object: ${quoted}` });
  }
  return issues.length === 0 ? { ok: true, value: record as unknown as LogInInput } : { ok: false, issues };
}

/** zod's `error.flatten()`: messages of the whole input, and of each field. */
export function flattenIssues(issues: readonly ZodIssue[]): { formErrors: string[]; fieldErrors: Record<string, string[]> } {
  const formErrors: string[] = [];
  const fieldErrors: Record<string, string[]> = {};
  for (const issue of issues) {
    const field = issue.path[0];
    if (field === undefined) formErrors.push(issue.message);
    else fieldErrors[String(field)] = [...(fieldErrors[String(field)] ?? []), issue.message];
  }
  return { formErrors, fieldErrors };
}
