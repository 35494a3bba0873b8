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
  /**
   * What the catalogue's schemas made so far, across all its operations: nodes (an enum's values
   * each count as one) and characters of text kept. Past either budget every further operation is
   * unsound: a shared component referred to from thousands of operations is made again at each.
   */
  budget: { used: number; catalogueNodes: number; textChars?: number; catalogueTextChars?: number };
}

/**
 * `clean` done once per distinct text and length: a hostile catalogue repeats one long text
 * thousands of times through shared components, and cleaning searches each for the token.
 * Bounded: past `kept` texts the oldest is forgotten.
 */
export function cleaningOnce(clean: TextCleaner, kept = 50_000): TextCleaner {
  const done = new Map<string, string>();
  return (text, max) => {
    const key = `${max}\u0000${text}`;
    let cleaned = done.get(key);
    if (cleaned === undefined) {
      cleaned = clean(text, max);
      if (done.size >= kept) done.delete(done.keys().next().value!);
      done.set(key, cleaned);
    }
    return cleaned;
  };
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

/** Counts `text` against the catalogue's text budget and hands it back cleaned. */
function keptText(text: string, max: number, context: ResolveContext): string {
  const { budget } = context;
  budget.textChars = (budget.textChars ?? 0) + Math.min(text.length, max);
  if (budget.catalogueTextChars !== undefined && budget.textChars > budget.catalogueTextChars)
    throw new UnsoundSchema('the catalogue’s schemas together hold too much text');
  return context.clean(text, max);
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
    if (typeof value === 'string') out[keyword] = keptText(value, max, context);
  }
  for (const keyword of NUMBER_KEYWORDS) {
    const value = schema[keyword];
    if (typeof value === 'number' && Number.isFinite(value)) out[keyword] = value;
  }
  if (Array.isArray(schema.enum)) {
    const values = schema.enum.slice(0, MAX_ENUM);
    // Each value counts as a node: an enum is what a shared component multiplies most.
    nodes.used += values.length;
    if (nodes.used > SCHEMA_NODES_MAX || context.budget.used + nodes.used > context.budget.catalogueNodes)
      throw new UnsoundSchema('the catalogue’s schemas together are too large');
    out.enum = values.map((value) => scalar(value, context));
  }
  if (Object.hasOwn(schema, 'const')) out.const = scalar(schema.const, context);
  const fallback = schema.default;
  if (typeof fallback === 'string' || typeof fallback === 'number' || typeof fallback === 'boolean')
    out.default = scalar(fallback, context);
  if (isRecord(schema.properties)) {
    const properties: Record<string, InputSchema> = {};
    const keys = Object.keys(schema.properties);
    if (keys.length > MAX_PROPERTIES) throw new UnsoundSchema(`an object of its input has more than ${MAX_PROPERTIES} fields`);
    for (const key of keys) {
      const name = keptText(key, 200, context);
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
function scalar(value: unknown, context: ResolveContext): unknown {
  if (typeof value === 'string') return keptText(value, 1000, context);
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return value;
  return null;
}
