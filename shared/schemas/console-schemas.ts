import { z } from 'zod';
import { formatBytes } from '../sizes.ts';
import { FIELD_PATH_MAX, parseFieldPath } from '../field-path.ts';
import { INPUT_MAX_BYTES, OPERATION_NAME_MAX, type OperationCall, type OperationRunOptions } from '../operations-console.ts';

/**
 * The console's arguments as main validates them (contract.ts). The operation's own input is
 * checked later, in main, against the schema the panel's catalogue gives it (INVALID_INPUT naming
 * the path); here only that it is JSON and not too large.
 */

export const operationNameSchema = z
  .string({ error: 'The operation must be named by text.' })
  .min(1, { error: 'Name an operation.' })
  .max(OPERATION_NAME_MAX, { error: `The operation name is too long (${OPERATION_NAME_MAX} characters at most).` })
  .regex(/^[A-Za-z0-9_.\-/]+$/, { error: 'An operation name holds only letters, digits, ".", "_", "-" and "/".' });

/** The size of `value` as JSON text, or null when it is not JSON data (a function, a cycle, a bigint). */
function jsonBytes(value: unknown): number | null {
  try {
    const text = JSON.stringify(value);
    return text === undefined ? 0 : new TextEncoder().encode(text).byteLength;
  } catch {
    return null;
  }
}

export const operationInputSchema = z.unknown().superRefine((value, context) => {
  const bytes = jsonBytes(value);
  if (bytes === null) context.addIssue({ code: 'custom', message: 'The input must be JSON data.' });
  else if (bytes > INPUT_MAX_BYTES)
    context.addIssue({ code: 'custom', message: `The input is too large (${formatBytes(INPUT_MAX_BYTES)} at most).` });
});

export const operationCallSchema = z
  .object({
    operation: operationNameSchema,
    input: operationInputSchema,
    shownAs: z.enum(['read', 'write'], { error: 'shownAs must be read or write.' }).optional(),
  })
  .strict() satisfies z.ZodType<OperationCall>;

export const fieldPathSchema = z
  .string({ error: 'The field must be a JSON path as text, or null.' })
  .max(FIELD_PATH_MAX, { error: `The field is too long (${FIELD_PATH_MAX} characters at most).` })
  .refine((text) => parseFieldPath(text) !== null, {
    error: 'The field must be a path like version, projects[0].name or users[1]["api token"].',
  })
  .nullable();

export const operationRunOptionsSchema = z
  .object({
    field: fieldPathSchema,
    allowWrite: z.boolean({ error: 'allowWrite must be true or false.' }).optional(),
  })
  .strict() satisfies z.ZodType<OperationRunOptions>;
