import { isRecord } from '../../../shared/guards.ts';
import { CUT_SCHEMA_MARK, type InputSchema } from '../../../shared/operations-console.ts';

/**
 * Checks a console call's input against the operation's resolved schema (catalogue-schemas.ts
 * made it: no `$ref`s, known keywords only), in main, before anything is sent. The subset: type
 * (and `nullable`), properties, required, additionalProperties, items, enum, const, the length,
 * size and range keywords, pattern, anyOf / oneOf (as "one of these fits") and allOf. A node cut
 * for a cycle or depth accepts anything. Walks by recursion over the schema, which is at most
 * `SCHEMA_DEPTH_MAX` deep; a deeper input is not walked past the schema's leaves.
 */

export interface InputIssue {
  /** A JSON pointer into the input (`/projectName`, `/items/2`); "" is the input itself. */
  path: string;
  message: string;
}

/** Issues reported at most: the first ones are what the operator fixes first. */
const MAX_ISSUES = 10;
/** A pattern longer than this, or one with a quantified group followed by a quantifier (catastrophic backtracking), is not run. */
const MAX_PATTERN = 500;
const RISKY_PATTERN = /\([^)]*[+*][^)]*\)[+*{]/;

export function checkInput(schema: InputSchema | null, input: unknown): InputIssue[] {
  if (schema === null)
    return input === undefined || input === null || (isRecord(input) && Object.keys(input).length === 0)
      ? []
      : [{ path: '', message: 'This operation takes no input.' }];
  const issues: InputIssue[] = [];
  check(schema, input, '', issues);
  return issues.slice(0, MAX_ISSUES);
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function fitsType(type: string, value: unknown): boolean {
  const actual = typeName(value);
  return type === actual || (type === 'number' && actual === 'integer');
}

const pointer = (path: string, key: string | number) => `${path}/${String(key).replaceAll('~', '~0').replaceAll('/', '~1')}`;

function check(schema: InputSchema, value: unknown, path: string, issues: InputIssue[]): void {
  if (issues.length >= MAX_ISSUES || Object.hasOwn(schema, CUT_SCHEMA_MARK)) return;
  const add = (message: string): void => {
    issues.push({ path, message });
  };
  if (value === undefined) return add('A value is missing.');
  if (value === null && schema.nullable === true) return;
  const types = typeof schema.type === 'string' ? [schema.type] : Array.isArray(schema.type) ? (schema.type as string[]) : null;
  if (types && !types.some((type) => fitsType(type, value))) return add(`Must be ${types.join(' or ')}, not ${typeName(value)}.`);
  if (Array.isArray(schema.enum) && !schema.enum.some((option) => option === value)) {
    return add(
      `Must be one of ${schema.enum
        .slice(0, 10)
        .map((option) => JSON.stringify(option))
        .join(', ')}${schema.enum.length > 10 ? ', …' : ''}.`,
    );
  }
  if (Object.hasOwn(schema, 'const') && schema.const !== value) return add(`Must be ${JSON.stringify(schema.const)}.`);
  if (typeof value === 'string') checkString(schema, value, add);
  if (typeof value === 'number') checkNumber(schema, value, add);
  if (Array.isArray(value)) {
    if (typeof schema.minItems === 'number' && value.length < schema.minItems) add(`Must hold at least ${schema.minItems} items.`);
    if (typeof schema.maxItems === 'number' && value.length > schema.maxItems) add(`Must hold at most ${schema.maxItems} items.`);
    if (isRecord(schema.items)) {
      const items = schema.items as InputSchema;
      value.forEach((item, index) => {
        check(items, item, pointer(path, index), issues);
      });
    }
  }
  if (isRecord(value)) checkObject(schema, value, path, issues);
  for (const part of (schema.allOf as InputSchema[] | undefined) ?? []) check(part, value, path, issues);
  const choices = (schema.anyOf ?? schema.oneOf) as InputSchema[] | undefined;
  if (choices && !choices.some((choice) => fitsChoice(choice, value, path))) add('Fits none of the shapes this value may take.');
}

function fitsChoice(choice: InputSchema, value: unknown, path: string): boolean {
  const trial: InputIssue[] = [];
  check(choice, value, path, trial);
  return trial.length === 0;
}

function checkString(schema: InputSchema, value: string, add: (message: string) => void): void {
  const length = [...value].length;
  if (typeof schema.minLength === 'number' && length < schema.minLength)
    add(schema.minLength === 1 ? 'Cannot be empty.' : `Must be at least ${schema.minLength} characters.`);
  if (typeof schema.maxLength === 'number' && length > schema.maxLength) add(`Must be at most ${schema.maxLength} characters.`);
  const pattern = schema.pattern;
  if (typeof pattern === 'string' && pattern.length <= MAX_PATTERN && !RISKY_PATTERN.test(pattern) && value.length <= 100_000) {
    let expression: RegExp | null = null;
    try {
      expression = new RegExp(pattern, 'u');
    } catch {
      // A pattern JavaScript cannot read is left to the panel to check.
    }
    if (expression && !expression.test(value)) add(`Must match ${pattern.slice(0, 100)}.`);
  }
}

function checkNumber(schema: InputSchema, value: number, add: (message: string) => void): void {
  const { minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf } = schema;
  if (typeof minimum === 'number' && value < minimum) add(`Must be at least ${minimum}.`);
  if (typeof maximum === 'number' && value > maximum) add(`Must be at most ${maximum}.`);
  if (typeof exclusiveMinimum === 'number' && value <= exclusiveMinimum) add(`Must be more than ${exclusiveMinimum}.`);
  if (typeof exclusiveMaximum === 'number' && value >= exclusiveMaximum) add(`Must be less than ${exclusiveMaximum}.`);
  if (typeof multipleOf === 'number' && multipleOf > 0 && !Number.isInteger(value / multipleOf))
    add(`Must be a multiple of ${multipleOf}.`);
}

function checkObject(schema: InputSchema, value: Record<string, unknown>, path: string, issues: InputIssue[]): void {
  const properties = isRecord(schema.properties) ? (schema.properties as Record<string, InputSchema>) : {};
  for (const key of (schema.required as string[] | undefined) ?? []) {
    if (!Object.hasOwn(value, key) || value[key] === undefined) issues.push({ path: pointer(path, key), message: 'Required.' });
  }
  for (const key of Object.keys(value)) {
    if (issues.length >= MAX_ISSUES) return;
    const item = value[key];
    if (Object.hasOwn(properties, key)) {
      if (item !== undefined) check(properties[key]!, item, pointer(path, key), issues);
    } else if (schema.additionalProperties === false) {
      issues.push({ path: pointer(path, key), message: 'Not a field of this operation.' });
    } else if (isRecord(schema.additionalProperties)) {
      check(schema.additionalProperties as InputSchema, item, pointer(path, key), issues);
    }
  }
}
