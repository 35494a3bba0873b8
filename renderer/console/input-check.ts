import { isRecord } from '../../shared/guards.ts';

/**
 * The window's check of an operation's input against its schema, as the operator types: the
 * JSON Schema subset main passes (types, enum, const, required, properties, additionalProperties,
 * items, lengths, bounds, pattern, anyOf/oneOf/allOf, nullable). Main checks again before sending;
 * a keyword outside the subset is not checked here, never refused.
 */

export type Schema = Record<string, unknown>;

export interface InputError {
  /** Where, as the form names fields: "" for the whole input, "domain.host", "ports.0". */
  path: string;
  message: string;
}

/** Deeper input than this is refused as a whole: no form makes it, and the check stays bounded. */
export const MAX_INPUT_DEPTH = 64;
/** Errors listed at most; past this the list says so. */
export const MAX_ERRORS = 50;

const typeOf = (value: unknown): string =>
  value === null
    ? 'null'
    : Array.isArray(value)
      ? 'array'
      : typeof value === 'number' && Number.isInteger(value)
        ? 'integer'
        : typeof value === 'number'
          ? 'number'
          : typeof value;

function typeMatches(expected: string, value: unknown): boolean {
  const actual = typeOf(value);
  return expected === actual || (expected === 'number' && actual === 'integer');
}

/** The schema's types, null added when it says `nullable`; empty when any type is allowed. */
export function schemaTypes(schema: Schema): string[] {
  const types =
    typeof schema.type === 'string' ? [schema.type] : Array.isArray(schema.type) ? schema.type.filter((t) => typeof t === 'string') : [];
  return schema.nullable === true && types.length > 0 ? [...types, 'null'] : types;
}

const quoted = (value: unknown) => JSON.stringify(value)?.slice(0, 60) ?? String(value);
const join = (path: string, key: string | number) => (path === '' ? String(key) : `${path}.${key}`);
const subSchemas = (list: unknown): Schema[] => (Array.isArray(list) ? list.filter(isRecord) : []);

/** Every error of `value` against `schema` (at most MAX_ERRORS; the last one then says more were left out). */
export function checkInput(schema: Schema | null, value: unknown): InputError[] {
  const errors: InputError[] = [];
  if (schema === null) {
    if (value !== undefined && value !== null) errors.push({ path: '', message: 'This operation takes no input.' });
    return errors;
  }
  checkValue(schema, value, '', 0, errors);
  if (errors.length > MAX_ERRORS)
    return [...errors.slice(0, MAX_ERRORS), { path: '', message: `and ${errors.length - MAX_ERRORS} more errors` }];
  return errors;
}

function checkValue(schema: Schema, value: unknown, path: string, depth: number, errors: InputError[]): void {
  if (errors.length > MAX_ERRORS) return;
  if (depth > MAX_INPUT_DEPTH) {
    errors.push({ path, message: `Nested deeper than ${MAX_INPUT_DEPTH} levels.` });
    return;
  }
  if (value === undefined) {
    errors.push({ path, message: 'Required.' });
    return;
  }
  for (const part of subSchemas(schema.allOf)) checkValue(part, value, path, depth + 1, errors);
  const choices = [...subSchemas(schema.anyOf), ...subSchemas(schema.oneOf)];
  if (choices.length > 0 && !(schema.nullable === true && value === null)) {
    const attempts = choices.map((choice) => {
      const found: InputError[] = [];
      checkValue(choice, value, path, depth + 1, found);
      return found;
    });
    if (!attempts.some((found) => found.length === 0)) {
      // The choice that came nearest says what is wrong; one that failed on its type alone says little.
      const nearest = attempts.reduce((best, found) => (found.length < best.length ? found : best));
      errors.push(
        ...(nearest.length > 0 && nearest.every((error) => error.path === path)
          ? [{ path, message: `Must match one of ${choices.length} forms: ${nearest[0]!.message}` }]
          : nearest),
      );
    }
  }
  const types = schemaTypes(schema);
  if (types.length > 0 && !types.some((type) => typeMatches(type, value))) {
    errors.push({ path, message: `Must be ${types.map((type) => (type === 'integer' ? 'a whole number' : article(type))).join(' or ')}.` });
    return;
  }
  if (Array.isArray(schema.enum) && !schema.enum.some((option) => option === value)) {
    errors.push({
      path,
      message: `Must be one of ${schema.enum.slice(0, 10).map(quoted).join(', ')}${schema.enum.length > 10 ? ', …' : ''}.`,
    });
  }
  if ('const' in schema && schema.const !== value) errors.push({ path, message: `Must be ${quoted(schema.const)}.` });
  if (typeof value === 'string') checkString(schema, value, path, errors);
  else if (typeof value === 'number') checkNumber(schema, value, path, errors);
  else if (Array.isArray(value)) checkArray(schema, value, path, depth, errors);
  else if (isRecord(value)) checkObject(schema, value, path, depth, errors);
}

const article = (type: string) => (type === 'null' ? 'null' : /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`);
const bound = (schema: Schema, key: string) => (typeof schema[key] === 'number' ? (schema[key] as number) : null);

function checkString(schema: Schema, value: string, path: string, errors: InputError[]): void {
  const min = bound(schema, 'minLength');
  const max = bound(schema, 'maxLength');
  if (min !== null && value.length < min) errors.push({ path, message: min === 1 ? 'Must not be empty.' : `At least ${min} characters.` });
  if (max !== null && value.length > max) errors.push({ path, message: `At most ${max} characters.` });
  if (typeof schema.pattern === 'string') {
    let pattern: RegExp | null = null;
    try {
      pattern = new RegExp(schema.pattern, 'u');
    } catch {
      return; // A pattern this engine cannot read is main's to check.
    }
    // A catalogue's pattern runs on what the operator typed, which is short: bounded enough.
    if (value.length <= 10_000 && !pattern.test(value)) errors.push({ path, message: `Must match ${schema.pattern}.` });
  }
  if (schema.format === 'email' && !/^[^@\s]+@[^@\s]+$/.test(value)) errors.push({ path, message: 'Must be an email address.' });
}

function checkNumber(schema: Schema, value: number, path: string, errors: InputError[]): void {
  const min = bound(schema, 'minimum');
  const max = bound(schema, 'maximum');
  const above = bound(schema, 'exclusiveMinimum');
  const below = bound(schema, 'exclusiveMaximum');
  if (min !== null && value < min) errors.push({ path, message: `At least ${min}.` });
  if (max !== null && value > max) errors.push({ path, message: `At most ${max}.` });
  if (above !== null && value <= above) errors.push({ path, message: `More than ${above}.` });
  if (below !== null && value >= below) errors.push({ path, message: `Less than ${below}.` });
}

function checkArray(schema: Schema, value: unknown[], path: string, depth: number, errors: InputError[]): void {
  const min = bound(schema, 'minItems');
  const max = bound(schema, 'maxItems');
  if (min !== null && value.length < min) errors.push({ path, message: `At least ${min} item${min === 1 ? '' : 's'}.` });
  if (max !== null && value.length > max) errors.push({ path, message: `At most ${max} items.` });
  if (!isRecord(schema.items)) return;
  for (let index = 0; index < value.length && errors.length <= MAX_ERRORS; index++) {
    checkValue(schema.items, value[index], join(path, index), depth + 1, errors);
  }
}

function checkObject(schema: Schema, value: Record<string, unknown>, path: string, depth: number, errors: InputError[]): void {
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required.filter((key) => typeof key === 'string') : [];
  for (const key of required)
    if (!Object.hasOwn(value, key) || value[key] === undefined) errors.push({ path: join(path, key), message: 'Required.' });
  for (const key of Object.keys(value)) {
    if (value[key] === undefined) continue; // an emptied field: said once above when required
    const property = Object.hasOwn(properties, key) ? properties[key] : undefined;
    if (isRecord(property)) checkValue(property, value[key], join(path, key), depth + 1, errors);
    else if (schema.additionalProperties === false) errors.push({ path: join(path, key), message: 'Not a field of this operation.' });
    else if (isRecord(schema.additionalProperties)) checkValue(schema.additionalProperties, value[key], join(path, key), depth + 1, errors);
  }
}
