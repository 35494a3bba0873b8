import { isRecord } from '../../shared/guards.ts';
import { type InputIssue, schemaTypes } from '../../shared/input-validation.ts';
import type { InputSchema } from '../../shared/operations-console.ts';

/**
 * A form made from an operation's input schema: one field per property, of the kind its schema
 * says. What the form cannot draw well (unions, arrays of objects, deeper objects) is a JSON field
 * of its own, so every input can still be typed; the whole input can be edited as JSON too.
 */

export type ChoiceValue = string | number | boolean | null;
export type SimpleKind = 'text' | 'number' | 'integer' | 'choice';

interface FieldBase {
  /** Keys from the input's root; empty for an input that is one value (not an object). */
  path: readonly string[];
  /** The path as errors name it ("domain.host"). */
  id: string;
  label: string;
  description: string | null;
  required: boolean;
  /** Null is allowed: the field can be set to null. */
  nullable: boolean;
  /** The key looks like it holds a secret: typed hidden, never kept in history or exports. */
  secret: boolean;
}

export type FormField =
  | (FieldBase & { kind: 'text' | 'number' | 'integer' | 'boolean' | 'json' })
  | (FieldBase & { kind: 'choice'; options: readonly ChoiceValue[] })
  | (FieldBase & { kind: 'list'; item: SimpleKind; options: readonly ChoiceValue[] })
  | (FieldBase & { kind: 'group'; fields: readonly FormField[] });

/** Objects nest into groups this deep; deeper ones are JSON fields. */
export const MAX_FORM_DEPTH = 3;
/** Properties drawn per object at most; an input with more is edited as JSON. */
export const MAX_FORM_FIELDS = 200;

/** The schema without a `null` choice (`anyOf: [X, {type: "null"}]`), and whether null was one. */
export function withoutNull(schema: InputSchema): { schema: InputSchema; nullable: boolean } {
  const choices = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : null;
  const nullable = schema.nullable === true || schemaTypes(schema).includes('null');
  if (choices) {
    const others = choices.filter((choice) => !(isRecord(choice) && choice.type === 'null'));
    if (others.length === 1 && isRecord(others[0]) && others.length < choices.length) {
      const { anyOf: _any, oneOf: _one, ...rest } = schema;
      return { schema: { ...rest, ...others[0] }, nullable: true };
    }
  }
  const types = schemaTypes(schema).filter((type) => type !== 'null');
  return { schema: types.length === 1 ? { ...schema, type: types[0] } : schema, nullable };
}

const isChoiceValue = (value: unknown): value is ChoiceValue =>
  value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';

function choicesOf(schema: InputSchema): ChoiceValue[] | null {
  if (Array.isArray(schema.enum) && schema.enum.length > 0 && schema.enum.every(isChoiceValue)) return schema.enum;
  if ('const' in schema && isChoiceValue(schema.const)) return [schema.const];
  return null;
}

function simpleKind(schema: InputSchema): SimpleKind | null {
  if (choicesOf(schema)) return 'choice';
  const [type, ...more] = schemaTypes(schema);
  if (more.length > 0) return null;
  return type === 'string' ? 'text' : type === 'number' ? 'number' : type === 'integer' ? 'integer' : null;
}

/** The fields of an input schema; none for an operation without input. */
export function formFields(schema: InputSchema | null, isSecret: (key: string) => boolean): FormField[] {
  if (schema === null) return [];
  const root = withoutNull(schema).schema;
  if (schemaTypes(root)[0] === 'object' && isRecord(root.properties))
    return objectFields(root, [], 0, isSecret) ?? [jsonField(schema, [], true)];
  return [fieldOf(schema, [], true, 0, isSecret)];
}

function objectFields(schema: InputSchema, path: readonly string[], depth: number, isSecret: (key: string) => boolean): FormField[] | null {
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const keys = Object.keys(properties);
  if (keys.length > MAX_FORM_FIELDS) return null;
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  return keys.map((key) => {
    const property = properties[key];
    return fieldOf(isRecord(property) ? property : {}, [...path, key], required.has(key), depth + 1, isSecret);
  });
}

function base(
  schema: InputSchema,
  path: readonly string[],
  required: boolean,
  nullable: boolean,
  isSecret: (key: string) => boolean,
): FieldBase {
  const label = path.at(-1) ?? 'Input';
  const text = typeof schema.description === 'string' ? schema.description : typeof schema.title === 'string' ? schema.title : null;
  return { path, id: path.join('.'), label, description: text, required, nullable, secret: path.some(isSecret) };
}

function jsonField(schema: InputSchema, path: readonly string[], required: boolean): FormField {
  return { ...base(schema, path, required, false, () => false), kind: 'json' };
}

function fieldOf(
  full: InputSchema,
  path: readonly string[],
  required: boolean,
  depth: number,
  isSecret: (key: string) => boolean,
): FormField {
  const { schema, nullable } = withoutNull(full);
  const common = base(schema, path, required, nullable, isSecret);
  const options = choicesOf(schema);
  if (options) return { ...common, kind: 'choice', options };
  const [type, ...more] = schemaTypes(schema);
  if (more.length > 0 || Array.isArray(schema.anyOf) || Array.isArray(schema.oneOf) || Array.isArray(schema.allOf))
    return { ...common, kind: 'json' };
  if (type === 'string') return { ...common, kind: 'text' };
  if (type === 'number' || type === 'integer' || type === 'boolean') return { ...common, kind: type };
  if (type === 'array' && isRecord(schema.items)) {
    const item = withoutNull(schema.items).schema;
    const kind = simpleKind(item);
    if (kind) return { ...common, kind: 'list', item: kind, options: choicesOf(item) ?? [] };
  }
  if (type === 'object' && isRecord(schema.properties) && depth < MAX_FORM_DEPTH) {
    const fields = objectFields(schema, path, depth, isSecret);
    if (fields) return { ...common, kind: 'group', fields };
  }
  return { ...common, kind: 'json' };
}

/** The value at `path` of the input (undefined where it is not set). */
export function valueAt(input: unknown, path: readonly string[]): unknown {
  let value = input;
  for (const key of path) {
    if (!isRecord(value) || !Object.hasOwn(value, key)) return undefined;
    value = value[key];
  }
  return value;
}

/** The input with `next` at `path` (objects made on the way); undefined takes the key out. */
export function withValue(input: unknown, path: readonly string[], next: unknown): unknown {
  if (path.length === 0) return next;
  const [key, ...rest] = path as [string, ...string[]];
  const record = isRecord(input) ? { ...input } : {};
  const inner = withValue(record[key], rest, next);
  if (inner === undefined) delete record[key];
  else record[key] = inner;
  return record;
}

/** What a number field holds: nothing when empty, the number, or the text as typed (which the check then refuses). */
export function numberFromText(text: string): number | string | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  const number = Number(trimmed);
  return Number.isFinite(number) ? number : text;
}

/** A list field's items, one per line; numbers as numbers where they read as such. */
export function listFromText(text: string, item: SimpleKind): unknown[] | undefined {
  const lines = text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  if (lines.length === 0) return undefined;
  return item === 'number' || item === 'integer' ? lines.map((line) => numberFromText(line) ?? line) : lines;
}

export function listText(value: unknown): string {
  return Array.isArray(value) ? value.map((item) => (typeof item === 'string' ? item : JSON.stringify(item))).join('\n') : '';
}

/** A new input: an object for an object schema, with the schema's defaults and required switches set to false. */
export function initialInput(schema: InputSchema | null, fields: readonly FormField[]): unknown {
  if (schema === null) return undefined;
  let input: unknown = fields.length === 1 && fields[0]!.path.length === 0 ? undefined : {};
  const visit = (list: readonly FormField[], schemaOf: (field: FormField) => InputSchema | undefined) => {
    for (const field of list) {
      if (field.kind === 'group') visit(field.fields, schemaOf);
      const fieldSchema = schemaOf(field);
      if (fieldSchema && 'default' in fieldSchema && field.path.length > 0) input = withValue(input, field.path, fieldSchema.default);
      else if (field.kind === 'boolean' && field.required && field.path.length > 0) input = withValue(input, field.path, false);
    }
  };
  visit(fields, (field) => schemaAt(schema, field.path));
  return input;
}

/** The schema of the property at `path` (through `properties`, nulls unwrapped). */
export function schemaAt(schema: InputSchema, path: readonly string[]): InputSchema | undefined {
  let current: InputSchema | undefined = withoutNull(schema).schema;
  for (const key of path) {
    const properties: unknown = current?.properties;
    const next = isRecord(properties) ? properties[key] : undefined;
    current = isRecord(next) ? withoutNull(next).schema : undefined;
  }
  return current;
}

/**
 * The errors by the field that shows them: each error goes to the deepest field whose path starts
 * its own ("ports.2" to the list "ports"); what no field holds is under "" (said above the form).
 */
export function errorsByField(fields: readonly FormField[], errors: readonly InputIssue[]): Map<string, string[]> {
  const ids: string[] = [];
  const collect = (list: readonly FormField[]) => {
    for (const field of list) {
      ids.push(field.id);
      if (field.kind === 'group') collect(field.fields);
    }
  };
  collect(fields);
  const byField = new Map<string, string[]>();
  for (const error of errors) {
    const owner =
      ids.filter((id) => id === error.path || (id !== '' && error.path.startsWith(`${id}.`))).sort((a, b) => b.length - a.length)[0] ?? '';
    const message = owner === error.path || owner === '' ? error.message : `${error.path.slice(owner.length + 1)}: ${error.message}`;
    byField.set(owner, [...(byField.get(owner) ?? []), owner === '' && error.path !== '' ? `${error.path}: ${message}` : message]);
  }
  return byField;
}
