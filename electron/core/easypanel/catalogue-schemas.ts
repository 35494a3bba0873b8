import { isRecord } from '../../../shared/guards.ts';
import { CUT_SCHEMA_MARK, type InputSchema, SCHEMA_DEPTH_MAX, SCHEMA_NODES_MAX } from '../../../shared/operations-console.ts';

/**
 * An operation's input schema from a panel's catalogue, made into what main checks inputs against
 * and the window draws a form from: only the keywords of the JSON Schema subset Paneldeck knows,
 * every local `$ref` inlined up to `SCHEMA_DEPTH_MAX` levels (a cycle or anything deeper is cut and
 * marked `CUT_SCHEMA_MARK`, accepting any value), every text shortened and cleaned of secrets, and
 * no more than `SCHEMA_NODES_MAX` nodes (a `$ref` fan-out that doubles at each level is unsound).
 */

/** Why an operation's schema cannot be used: the operation is skipped with this reason. */
export class UnsoundSchema extends Error {}

/** Cleans a text the panel wrote (a description, an enum value): shortened, secrets hidden. */
export type TextCleaner = (text: string, max: number) => string;

export interface ResolveContext {
  /** The whole catalogue: `$ref`s are JSON pointers into it. */
  document: Record<string, unknown>;
  clean: TextCleaner;
  /** Nodes made so far across the catalogue; past `catalogueNodes` every operation is unsound. */
  budget: { used: number; catalogueNodes: number };
}

const TEXT_KEYWORDS = { title: 200, description: 2000, format: 100, pattern: 1000 } as const;
const NUMBER_KEYWORDS = [
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minItems',
  'maxItems',
  'multipleOf',
] as const;
const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);
const MAX_ENUM = 1000;
const MAX_PROPERTIES = 1000;

/** The value a JSON pointer (`#/components/schemas/X`) names in `document`, own keys only; undefined when none. */
export function resolvePointer(document: Record<string, unknown>, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  let here: unknown = document;
  for (const raw of ref.slice(2).split('/')) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (Array.isArray(here) && /^\d+$/.test(key)) here = here[Number(key)];
    else if (isRecord(here) && Object.hasOwn(here, key)) here = here[key];
    else return undefined;
  }
  return here;
}

/** The input schema `schema` resolved, or UnsoundSchema. */
export function resolveSchema(schema: unknown, context: ResolveContext): InputSchema {
  const nodes = { used: 0 };
  const resolved = resolveNode(schema, context, nodes, 0, []);
  context.budget.used += nodes.used;
  return resolved;
}

function cut(why: 'cycle' | 'depth', clean: TextCleaner, ref: string | null): InputSchema {
  const where = ref === null ? '' : ` (${clean(ref, 200)})`;
  const description = why === 'cycle' ? `Refers to itself${where}: any JSON here.` : `Nested too deep to show${where}: any JSON here.`;
  return { [CUT_SCHEMA_MARK]: why, description };
}

function resolveNode(schema: unknown, context: ResolveContext, nodes: { used: number }, depth: number, refs: string[]): InputSchema {
  if (++nodes.used > SCHEMA_NODES_MAX)
    throw new UnsoundSchema(
      `its input schema has more than ${SCHEMA_NODES_MAX.toLocaleString('en')} parts once its references are followed`,
    );
  if (context.budget.used + nodes.used > context.budget.catalogueNodes)
    throw new UnsoundSchema('the catalogue’s schemas together are too large');
  if (schema === true || (isRecord(schema) && Object.keys(schema).length === 0)) return {};
  if (!isRecord(schema)) throw new UnsoundSchema('a part of its input schema is not a schema');
  if (depth > SCHEMA_DEPTH_MAX) return cut('depth', context.clean, null);
  const ref = schema.$ref;
  if (ref !== undefined) {
    if (typeof ref !== 'string') throw new UnsoundSchema('its input schema has a $ref that is not text');
    if (!ref.startsWith('#/')) throw new UnsoundSchema('its input schema refers outside the catalogue, which Paneldeck never fetches');
    if (refs.includes(ref)) return cut('cycle', context.clean, ref);
    const target = resolvePointer(context.document, ref);
    if (target === undefined)
      throw new UnsoundSchema(`its input schema refers to ${context.clean(ref, 200)}, which the catalogue does not have`);
    return resolveNode(target, context, nodes, depth + 1, [...refs, ref]);
  }
  const next = (child: unknown) => resolveNode(child, context, nodes, depth + 1, refs);
  const out: InputSchema = {};
  const type = schema.type;
  if (typeof type === 'string' && TYPES.has(type)) out.type = type;
  else if (Array.isArray(type) && type.every((item) => typeof item === 'string' && TYPES.has(item))) out.type = [...type];
  if (schema.nullable === true) out.nullable = true;
  for (const [keyword, max] of Object.entries(TEXT_KEYWORDS)) {
    const value = schema[keyword];
    if (typeof value === 'string') out[keyword] = context.clean(value, max);
  }
  for (const keyword of NUMBER_KEYWORDS) {
    const value = schema[keyword];
    if (typeof value === 'number' && Number.isFinite(value)) out[keyword] = value;
  }
  if (Array.isArray(schema.enum)) out.enum = schema.enum.slice(0, MAX_ENUM).map((value) => scalar(value, context.clean));
  if (Object.hasOwn(schema, 'const')) out.const = scalar(schema.const, context.clean);
  const fallback = schema.default;
  if (typeof fallback === 'string' || typeof fallback === 'number' || typeof fallback === 'boolean')
    out.default = scalar(fallback, context.clean);
  if (isRecord(schema.properties)) {
    const properties: Record<string, InputSchema> = {};
    const keys = Object.keys(schema.properties);
    if (keys.length > MAX_PROPERTIES) throw new UnsoundSchema(`an object of its input has more than ${MAX_PROPERTIES} fields`);
    for (const key of keys) {
      const name = context.clean(key, 200);
      // defineProperty: "__proto__" stays an ordinary key.
      Object.defineProperty(properties, name, {
        value: next(schema.properties[key]),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    out.properties = properties;
  }
  if (Array.isArray(schema.required))
    out.required = schema.required.filter((key): key is string => typeof key === 'string').map((key) => context.clean(key, 200));
  if (schema.additionalProperties === false) out.additionalProperties = false;
  else if (isRecord(schema.additionalProperties)) out.additionalProperties = next(schema.additionalProperties);
  if (schema.items !== undefined && !Array.isArray(schema.items)) out.items = next(schema.items);
  for (const keyword of ['anyOf', 'oneOf', 'allOf'] as const) {
    const list = schema[keyword];
    if (Array.isArray(list) && list.length > 0) {
      if (list.length > 100) throw new UnsoundSchema(`its input schema has more than 100 ${keyword} choices`);
      out[keyword] = list.map(next);
    }
  }
  return out;
}

/** An enum, const or default value: scalars as they are (texts cleaned), anything else as null. */
function scalar(value: unknown, clean: TextCleaner): unknown {
  if (typeof value === 'string') return clean(value, 1000);
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return value;
  return null;
}
