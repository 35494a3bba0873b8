import { PanelError } from '../../../shared/contract/errors.ts';
import { isRecord } from '../../../shared/guards.ts';
import { isPanelVersion } from '../../../shared/panel-version.ts';
import {
  CATALOGUE_MAX_OPERATIONS,
  type Generation,
  type CatalogueOperation,
  type InputSchema,
  OPERATION_NAME_MAX,
} from '../../../shared/operations-console.ts';
import { checkJsonShape, type JsonShapeLimits } from '../common/json-shape.ts';
import { TimeSlicer } from '../common/time-slices.ts';
import { cleaningOnce, type ResolveContext, resolvePointer, resolveSchema, type TextCleaner, UnsoundSchema } from './catalogue-schemas.ts';

/**
 * A panel's `/api/openapi.json` read into the console's operations, for each generation's shape
 * (docs/easypanel-api.md): tRPC paths `/api/trpc/<ns.proc>` (a GET's input in its `input` parameter);
 * 2.31–2.32 `servers: [{url: "/api/rpc"}]` with POST paths `/<ns>/<proc>`; 2.33
 * `servers: [{url: "/api"}]` with GET reads (query parameters) and POST writes at `/<name>`.
 *
 * Confinement: a catalogue's paths and servers only say which operations exist. Every path must be
 * exactly its generation's form (names of letters, digits and `_`; no `..`, no `%`, no other host,
 * no absolute URL), else the operation is skipped; a server other than `/api/rpc` or `/api` refuses
 * the whole catalogue. The route a call goes to is rebuilt by Paneldeck from the name alone
 * (`routeOf`), so nothing the catalogue says about where to send reaches a request.
 */

/** An operation with the route Paneldeck built for it (under the panel's API base). */
export interface CatalogueEntry extends CatalogueOperation {
  route: string;
  /**
   * A 2.33 read whose parameters are not all text goes through the RPC layer there instead
   * (2.33 does not coerce a GET's parameters: `limit=5` is refused as not a number): its
   * procedure's route. Null: the read is a GET as the catalogue lists it.
   */
  rpcRoute: string | null;
}

export interface ReadCatalogue {
  generation: Generation;
  /** `info.version` when it is a panel version ("2.33.4"): a generated catalogue names its application's. */
  version: string | null;
  operations: CatalogueEntry[];
  skipped: { name: string; reason: string }[];
}

/**
 * The catalogue's shape limits before it is parsed: a real one (~375 operations) is about 30,000
 * values and 20 levels deep. The value bound keeps JSON.parse, which cannot be cut into slices,
 * to tens of milliseconds of main's event loop (bench/operation-console.ts).
 */
export const CATALOGUE_SHAPE_LIMITS: Readonly<JsonShapeLimits> = Object.freeze({ maxDepth: 256, maxValues: 500_000 });
/** Schema nodes kept across a whole catalogue, once `$ref`s are inlined. */
export const CATALOGUE_SCHEMA_NODES = 400_000;
/** Characters of text the schemas of a catalogue may keep in all (descriptions, enum values, names): about 16 MiB. */
export const CATALOGUE_TEXT_CHARS = 8_000_000;
/** Skipped operations listed one by one; past this, one line says how many more. */
const SKIPPED_LISTED = 500;

const PATH_FORMS: Readonly<Record<Generation, RegExp>> = {
  trpc: /^\/api\/trpc\/([A-Za-z0-9_]+(?:\.[A-Za-z0-9_]+)*)$/,
  rpc: /^\/([A-Za-z0-9_]+(?:\/[A-Za-z0-9_]+)*)$/,
  public: /^\/([A-Za-z0-9_]+)$/,
};

/**
 * 2.31–2.32 list every operation as a POST: a read is told by its name's verb, by a conservative
 * rule, and anything else is a write (asked for in main's confirmation, never retried). Only get,
 * list, inspect and query name reads: `check` runs a check (checkForUpdates), `search` may replace
 * (WordPress's searchReplace), and validate, preview, is and the like are not trusted to be reads.
 * A name a real 2.33.1 catalogue lists as a POST despite a read's verb is a write too.
 */
const READ_VERB = /^(?:get|list|inspect|query)(?:[A-Z0-9_]|$)/;
const WRITES_DESPITE_NAME: ReadonlySet<string> = new Set(['getDashboard']);

/** The route under the panel's API base a call of `name` goes to: built from the name alone, never from the catalogue. */
export function routeOf(generation: Generation, name: string): string {
  if (generation === 'trpc') return `/trpc/${name}`;
  if (generation === 'rpc') return `/rpc/${name.split('.').join('/')}`;
  return `/${name}`;
}

/** Reads the catalogue's text; fails (BAD_RESPONSE, RESPONSE_TOO_LARGE) only when nothing of it can be used. */
export async function readCatalogue(text: string, clean: TextCleaner): Promise<ReadCatalogue> {
  const shape = checkJsonShape(text, CATALOGUE_SHAPE_LIMITS);
  if (!shape.ok) {
    const limit = shape.limit.toLocaleString('en');
    throw new PanelError(
      shape.exceeded === 'depth' ? 'BAD_RESPONSE' : 'RESPONSE_TOO_LARGE',
      `The panel's catalogue (/api/openapi.json) ${shape.exceeded === 'depth' ? `is nested more than ${limit} levels deep` : `holds more than ${limit} values`}; ` +
        'no real catalogue does, so Paneldeck refused it rather than freeze while reading it.',
    );
  }
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    throw new PanelError('BAD_RESPONSE', "The panel's catalogue (/api/openapi.json) is not valid JSON.");
  }
  if (!isRecord(document) || !isRecord(document.paths)) {
    throw new PanelError('BAD_RESPONSE', "The panel's catalogue (/api/openapi.json) has no list of operations (`paths`).");
  }
  const generation = generationOf(document, clean);
  const info = isRecord(document.info) ? document.info.version : null;
  return { ...(await readPaths(document, document.paths, generation, clean)), version: isPanelVersion(info) ? info : null };
}

/** The generation the catalogue's servers and paths say; a server outside the panel's /api refuses it whole. */
function generationOf(document: Record<string, unknown>, clean: TextCleaner): Generation {
  const servers = document.servers;
  const urls = Array.isArray(servers) ? servers.map((server) => (isRecord(server) ? server.url : undefined)) : [];
  if (servers !== undefined && !Array.isArray(servers)) throw refused('its `servers` is not a list');
  const forms = new Set(urls.map((url) => (typeof url === 'string' ? url.replace(/\/+$/, '') : url)));
  if (forms.size > 1) throw refused('it names several servers');
  const [server] = [...forms];
  if (server === '/api/rpc') return 'rpc';
  if (server === '/api') return 'public';
  if (server === undefined || server === '') {
    if (Object.keys(document.paths as object).some((path) => path.startsWith('/api/trpc/'))) return 'trpc';
    throw refused('its paths are in no Easypanel generation’s form');
  }
  const named = typeof server === 'string' ? `"${clean(server, 120)}"` : 'a server that is not text';
  throw refused(`it sends operations to ${named}, not to the panel’s own /api`);
}

function refused(why: string): PanelError {
  return new PanelError(
    'BAD_RESPONSE',
    `Paneldeck refused the panel's catalogue (/api/openapi.json): ${why}. No operation of it is offered.`,
  );
}

async function readPaths(
  document: Record<string, unknown>,
  paths: Record<string, unknown>,
  generation: Generation,
  clean: TextCleaner,
): Promise<Omit<ReadCatalogue, 'version'>> {
  const operations: CatalogueEntry[] = [];
  const skipped: ReadCatalogue['skipped'] = [];
  let unlisted = 0;
  const skip = (name: string, reason: string) => {
    if (skipped.length < SKIPPED_LISTED) skipped.push({ name: clean(name, 120), reason });
    else unlisted++;
  };
  const names = new Set<string>();
  const context: ResolveContext = {
    document,
    clean: cleaningOnce(clean),
    budget: { used: 0, catalogueNodes: CATALOGUE_SCHEMA_NODES, textChars: 0, catalogueTextChars: CATALOGUE_TEXT_CHARS },
  };
  const slicer = new TimeSlicer();
  for (const path of Object.keys(paths)) {
    if (slicer.due) await slicer.nextSlice();
    const match = PATH_FORMS[generation].exec(path);
    if (!match) {
      skip(path, 'its path is not in the form of its generation, or leads outside the panel’s /api');
      continue;
    }
    const name = match[1]!.replaceAll('/', '.');
    const item = paths[path];
    if (name.length > OPERATION_NAME_MAX) {
      skip(name, 'its name is too long');
      continue;
    }
    if (clean(name, OPERATION_NAME_MAX) !== name) {
      // The name goes to the window and into requests: one holding the token (or what may encode it) is neither.
      skip(name, 'its name holds what may be a secret');
      continue;
    }
    if (!isRecord(item)) {
      skip(name, 'it is not an operation (not an object)');
      continue;
    }
    for (const method of Object.keys(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const read = readOperation(item[method], method, name, generation, context);
      if ('reason' in read) skip(name, read.reason);
      else if (names.has(name)) skip(name, 'it is listed twice');
      else if (operations.length >= CATALOGUE_MAX_OPERATIONS)
        skip(name, `the catalogue has more than ${CATALOGUE_MAX_OPERATIONS.toLocaleString('en')} operations`);
      else {
        names.add(name);
        operations.push({ ...read, route: routeOf(generation, name), rpcRoute: rpcRouteOf(generation, read) });
      }
    }
  }
  if (unlisted > 0) skipped.push({ name: `${unlisted.toLocaleString('en')} more`, reason: 'not listed one by one' });
  return { generation, operations, skipped };
}

/**
 * The 2.31–2.32 procedure of a 2.33 read with parameters that are not text, as the real
 * catalogues name them (docs/easypanel-api.md, "Generations"): a 2.33.1 panel has these five, and
 * its RPC layer the procedures beside them. A read not listed here stays a GET.
 */
const RPC_PROCEDURE_OF_READ: Readonly<Record<string, string>> = {
  listActions: 'actions/listActions',
  queryServiceLogs: 'logs/queryServiceLogs',
  queryComposeServiceLogs: 'logs/queryComposeServiceLogs',
  getMetricsServiceStats: 'metrics/getServiceStats',
  getMetricsSystemStats: 'metrics/getSystemStats',
};

/** Whether a JSON schema's value is anything but text (a number, a flag, a list, an object): 2.33's GET cannot carry it. */
function notText(schema: unknown): boolean {
  if (!isRecord(schema)) return false;
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.some((type) => typeof type === 'string' && type !== 'string' && type !== 'null')) return true;
  // An enum of numbers, or a union with a number in it, is not text either.
  if (Array.isArray(schema.enum) && schema.enum.some((value) => typeof value !== 'string' && value !== null)) return true;
  for (const key of ['anyOf', 'oneOf'] as const) {
    const options = schema[key];
    if (Array.isArray(options) && options.some(notText)) return true;
  }
  return false;
}

function rpcRouteOf(generation: Generation, read: CatalogueOperation): string | null {
  if (generation !== 'public' || read.kind !== 'read') return null;
  const properties = read.input?.properties;
  if (!isRecord(properties) || !Object.values(properties).some(notText)) return null;
  const procedure = Object.hasOwn(RPC_PROCEDURE_OF_READ, read.name) ? RPC_PROCEDURE_OF_READ[read.name] : undefined;
  return procedure === undefined ? null : `/rpc/${procedure}`;
}

/** One method of a path: the operation, or why it is skipped. */
function readOperation(
  value: unknown,
  method: string,
  name: string,
  generation: Generation,
  context: ResolveContext,
): CatalogueOperation | { reason: string } {
  if (method !== 'get' && method !== 'post') return { reason: `${method.toUpperCase()} is not a method Easypanel uses` };
  if (generation === 'rpc' && method !== 'post') return { reason: 'the RPC layer takes only POST' };
  if (!isRecord(value)) return { reason: `its ${method.toUpperCase()} is not an operation (not an object)` };
  const last = name.split('.').at(-1) ?? name;
  const kind =
    generation === 'rpc'
      ? READ_VERB.test(last) && !WRITES_DESPITE_NAME.has(last)
        ? 'read'
        : 'write'
      : method === 'get'
        ? 'read'
        : 'write';
  const summary =
    typeof value.summary === 'string'
      ? context.clean(value.summary, 500)
      : typeof value.description === 'string'
        ? context.clean(value.description, 500)
        : null;
  try {
    const body = method === 'post' ? bodySchema(value, context) : queryInput(value, generation, context);
    const input = generation === 'rpc' ? inputInsideJson(body) : body;
    return { name, kind, summary, input };
  } catch (error) {
    if (error instanceof UnsoundSchema) return { reason: error.message };
    throw error;
  }
}

/** A `$ref`'d part (a requestBody, a parameter) taken from the document, once. */
function followOnce(value: unknown, context: ResolveContext): unknown {
  if (!isRecord(value) || typeof value.$ref !== 'string') return value;
  const target = resolvePointer(context.document, value.$ref);
  if (target === undefined) throw new UnsoundSchema('it refers to a part the catalogue does not have');
  return target;
}

function jsonSchemaOf(content: unknown): unknown {
  if (!isRecord(content)) return undefined;
  const json = content['application/json'];
  return isRecord(json) ? json.schema : undefined;
}

function bodySchema(operation: Record<string, unknown>, context: ResolveContext): InputSchema | null {
  if (operation.requestBody === undefined) return null;
  const body = followOnce(operation.requestBody, context);
  if (!isRecord(body)) throw new UnsoundSchema('its request body is not an object');
  const schema = jsonSchemaOf(body.content);
  return schema === undefined ? null : resolveSchema(schema, context);
}

/**
 * The RPC layer's catalogue describes a request body whole, `{json: <input>}` with `json` required
 * (a real 2.32.2's does: docs/easypanel-api.md, "The catalogue"): the operator's input is what
 * `json` holds, checked against that and wrapped once when sent. A body not wrapped so is the input.
 */
function inputInsideJson(body: InputSchema | null): InputSchema | null {
  const properties = body?.properties;
  if (!isRecord(properties) || !Object.hasOwn(properties, 'json')) return body;
  const inside = properties.json;
  return isRecord(inside) ? inside : null;
}

/** A read's input: tRPC's `input` parameter (JSON), or 2.33's query parameters as one object. */
function queryInput(operation: Record<string, unknown>, generation: Generation, context: ResolveContext): InputSchema | null {
  const parameters = operation.parameters ?? [];
  if (!Array.isArray(parameters)) throw new UnsoundSchema('its parameters are not a list');
  if (parameters.length === 0) return null;
  if (parameters.length > 200) throw new UnsoundSchema('it has more than 200 parameters');
  const read = parameters.map((parameter) => followOnce(parameter, context));
  if (generation === 'trpc') {
    const input = read.find((parameter) => isRecord(parameter) && parameter.name === 'input' && parameter.in === 'query');
    if (!isRecord(input)) throw new UnsoundSchema('its parameters have no `input`');
    const schema = jsonSchemaOf(input.content) ?? input.schema;
    return schema === undefined ? null : resolveSchema(schema, context);
  }
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const parameter of read) {
    if (!isRecord(parameter) || typeof parameter.name !== 'string') throw new UnsoundSchema('a parameter of it has no name');
    if (parameter.in !== 'query')
      throw new UnsoundSchema(
        `it takes a ${typeof parameter.in === 'string' ? context.clean(parameter.in, 20) : ''} parameter, which Paneldeck does not fill in`,
      );
    Object.defineProperty(properties, parameter.name, {
      value: parameter.schema ?? {},
      enumerable: true,
      writable: true,
      configurable: true,
    });
    if (parameter.required === true) required.push(parameter.name);
  }
  return resolveSchema({ type: 'object', properties, required, additionalProperties: false }, context);
}
