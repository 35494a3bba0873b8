import { isRecord } from './guards.ts';
import { CUT_SCHEMA_MARK, type InputSchema } from './operations-console.ts';

/**
 * Checks a console call's input against its operation's resolved schema (catalogue-schemas.ts made
 * it: no `$ref`s, known keywords only): in the window as the operator types, and in main again
 * before anything is sent, so both say the same. The subset: type (and `nullable`), properties,
 * required, additionalProperties, items, enum, const, the length, size and range keywords,
 * multipleOf, pattern, `format: email`, allOf, and anyOf / oneOf (each as "one of these fits"). A
 * node cut for a cycle or depth accepts anything; a keyword outside the subset is not checked,
 * never refused. Pure, no dependency, bounded: at most `MAX_INPUT_DEPTH` levels are walked and the
 * walk stops once `MAX_INPUT_ISSUES` are found.
 */

export interface InputIssue {
  /** Where, as the form names fields: "" for the whole input, "domain.host", "ports.0". */
  path: string;
  message: string;
}

/** Issues listed at most (the first ones are what the operator fixes first); past this one more line says there are more. */
export const MAX_INPUT_ISSUES = 10;
/** Input nested deeper than this (counted along the schema) is refused there: no form makes it, and the check stays bounded. */
export const MAX_INPUT_DEPTH = 64;
/** A pattern longer than this, or shaped like catastrophic backtracking (a quantified group quantified again), is not run. */
const MAX_PATTERN = 500;
const RISKY_PATTERN = /\([^)]*[+*][^)]*\)[+*{]/;
/** Texts longer than this are not matched against a pattern: one that backtracks polynomially must not hold up main. */
const MAX_PATTERN_TEXT = 10_000;
const EMAIL = /^[^@\s]+@[^@\s]+$/;

/** Every issue of `input` against `schema` (null: the operation takes no input), at most MAX_INPUT_ISSUES and a line saying more were left out. */
export function validateInput(schema: InputSchema | null, input: unknown): InputIssue[] {
  if (schema === null)
    return input === undefined || input === null || (isRecord(input) && Object.keys(input).length === 0)
      ? []
      : [{ path: '', message: 'This operation takes no input.' }];
  const issues: InputIssue[] = [];
  validateValue(schema, input, '', 0, issues);
  if (issues.length <= MAX_INPUT_ISSUES) return issues;
  return [...issues.slice(0, MAX_INPUT_ISSUES), { path: '', message: `and more errors after these ${MAX_INPUT_ISSUES}` }];
}

const typeOf = (value: unknown): string =>
  value === null
    ? 'null'
    : Array.isArray(value)
      ? 'array'
      : typeof value === 'number'
        ? Number.isInteger(value)
          ? 'integer'
          : 'number'
        : typeof value;

const fitsType = (type: string, value: unknown): boolean => {
  const actual = typeOf(value);
  return type === actual || (type === 'number' && actual === 'integer');
};

/** The schema's types, null added when it says `nullable`; empty when any type is allowed. */
export function schemaTypes(schema: InputSchema): string[] {
  const types =
    typeof schema.type === 'string' ? [schema.type] : Array.isArray(schema.type) ? schema.type.filter((t) => typeof t === 'string') : [];
  return schema.nullable === true && types.length > 0 ? [...types, 'null'] : types;
}

const quoted = (value: unknown) => JSON.stringify(value)?.slice(0, 60) ?? String(value);
const join = (path: string, key: string | number) => (path === '' ? String(key) : `${path}.${key}`);
const subSchemas = (list: unknown): InputSchema[] => (Array.isArray(list) ? list.filter(isRecord) : []);
const bound = (schema: InputSchema, key: string) => (typeof schema[key] === 'number' ? (schema[key] as number) : null);
const article = (type: string) =>
  type === 'null' ? 'null' : type === 'integer' ? 'a whole number' : /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
/** The walk goes on while this is false: one issue past the cap is kept, so the caller knows there were more. */
const full = (issues: readonly InputIssue[]) => issues.length > MAX_INPUT_ISSUES;

function validateValue(schema: InputSchema, value: unknown, path: string, depth: number, issues: InputIssue[]): void {
  if (full(issues) || Object.hasOwn(schema, CUT_SCHEMA_MARK)) return;
  const add = (message: string) => {
    issues.push({ path, message });
  };
  if (depth > MAX_INPUT_DEPTH) return add(`Nested deeper than ${MAX_INPUT_DEPTH} levels.`);
  if (value === undefined) return add('Required.');
  if (value === null && schema.nullable === true) return;
  const types = schemaTypes(schema);
  // A value of the wrong type is said once: its other keywords would only repeat it.
  if (types.length > 0 && !types.some((type) => fitsType(type, value))) return add(`Must be ${types.map(article).join(' or ')}.`);
  if (Array.isArray(schema.enum) && !schema.enum.some((option) => option === value))
    add(`Must be one of ${schema.enum.slice(0, 10).map(quoted).join(', ')}${schema.enum.length > 10 ? ', …' : ''}.`);
  if (Object.hasOwn(schema, 'const') && schema.const !== value) add(`Must be ${quoted(schema.const)}.`);
  if (typeof value === 'string') validateString(schema, value, add);
  else if (typeof value === 'number') validateNumber(schema, value, add);
  else if (Array.isArray(value)) validateArray(schema, value, path, depth, issues);
  else if (isRecord(value)) validateObject(schema, value, path, depth, issues);
  for (const part of subSchemas(schema.allOf)) validateValue(part, value, path, depth + 1, issues);
  for (const choices of [subSchemas(schema.anyOf), subSchemas(schema.oneOf)])
    if (choices.length > 0) validateChoices(choices, value, path, depth, issues);
}

/** At least one of `choices` fits; when none does, the one that came nearest says what is wrong. */
function validateChoices(choices: readonly InputSchema[], value: unknown, path: string, depth: number, issues: InputIssue[]): void {
  let nearest: InputIssue[] | null = null;
  for (const choice of choices) {
    const found: InputIssue[] = [];
    validateValue(choice, value, path, depth + 1, found);
    if (found.length === 0) return;
    if (nearest === null || found.length < nearest.length) nearest = found;
  }
  if (nearest === null) return;
  // Issues about the value itself read as one line; issues deeper inside keep their own paths.
  if (nearest.every((issue) => issue.path === path))
    issues.push({ path, message: `Must match one of ${choices.length} forms: ${nearest[0]!.message}` });
  else issues.push(...nearest);
}

/** Code points, as JSON Schema counts a string's length: an emoji is one character, not two UTF-16 units. */
function codePoints(text: string): number {
  let count = text.length;
  for (let index = 0; index < text.length - 1; index++) {
    const unit = text.charCodeAt(index);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        count--;
        index++;
      }
    }
  }
  return count;
}

function validateString(schema: InputSchema, value: string, add: (message: string) => void): void {
  const min = bound(schema, 'minLength');
  const max = bound(schema, 'maxLength');
  const length = min === null && max === null ? 0 : codePoints(value);
  if (min !== null && length < min) add(min === 1 ? 'Must not be empty.' : `At least ${min} characters.`);
  if (max !== null && length > max) add(`At most ${max} characters.`);
  const pattern = schema.pattern;
  if (typeof pattern === 'string' && pattern.length <= MAX_PATTERN && !RISKY_PATTERN.test(pattern) && value.length <= MAX_PATTERN_TEXT) {
    let expression: RegExp | null = null;
    try {
      expression = new RegExp(pattern, 'u');
    } catch {
      // A pattern JavaScript cannot read is left to the panel to check.
    }
    if (expression && !expression.test(value)) add(`Must match ${pattern.slice(0, 100)}.`);
  }
  if (schema.format === 'email' && !EMAIL.test(value)) add('Must be an email address.');
}

function validateNumber(schema: InputSchema, value: number, add: (message: string) => void): void {
  const min = bound(schema, 'minimum');
  const max = bound(schema, 'maximum');
  const above = bound(schema, 'exclusiveMinimum');
  const below = bound(schema, 'exclusiveMaximum');
  const step = bound(schema, 'multipleOf');
  if (min !== null && value < min) add(`At least ${min}.`);
  if (max !== null && value > max) add(`At most ${max}.`);
  if (above !== null && value <= above) add(`More than ${above}.`);
  if (below !== null && value >= below) add(`Less than ${below}.`);
  if (step !== null && step > 0 && !Number.isInteger(value / step)) add(`A multiple of ${step}.`);
}

function validateArray(schema: InputSchema, value: readonly unknown[], path: string, depth: number, issues: InputIssue[]): void {
  const min = bound(schema, 'minItems');
  const max = bound(schema, 'maxItems');
  if (min !== null && value.length < min) issues.push({ path, message: `At least ${min} item${min === 1 ? '' : 's'}.` });
  if (max !== null && value.length > max) issues.push({ path, message: `At most ${max} items.` });
  if (!isRecord(schema.items)) return;
  for (let index = 0; index < value.length && !full(issues); index++)
    validateValue(schema.items, value[index], join(path, index), depth + 1, issues);
}

function validateObject(schema: InputSchema, value: Record<string, unknown>, path: string, depth: number, issues: InputIssue[]): void {
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required.filter((key) => typeof key === 'string') : [];
  for (const key of required) {
    if (full(issues)) return;
    if (!Object.hasOwn(value, key) || value[key] === undefined) issues.push({ path: join(path, key), message: 'Required.' });
  }
  for (const key of Object.keys(value)) {
    if (full(issues)) return;
    const item = value[key];
    // An emptied field is not sent (JSON has no undefined); when required it was said once above.
    if (item === undefined) continue;
    if (Object.hasOwn(properties, key)) {
      const property = properties[key];
      if (isRecord(property)) validateValue(property, item, join(path, key), depth + 1, issues);
    } else if (schema.additionalProperties === false) {
      issues.push({ path: join(path, key), message: 'Not a field of this operation.' });
    } else if (isRecord(schema.additionalProperties)) {
      validateValue(schema.additionalProperties, item, join(path, key), depth + 1, issues);
    }
  }
}
