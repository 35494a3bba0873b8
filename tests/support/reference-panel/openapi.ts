import type { ServerResponse } from 'node:http';
import { sendJson } from './http.ts';
import { OPERATIONS, servedOperations, type Operation } from './operations.ts';
import type { PanelState } from './state.ts';
import type { PanelStyle, ReferencePanelOptions, Route, Transport } from './types.ts';

/**
 * `GET /api/openapi.json`: the catalogue each Easypanel generation serves (docs/easypanel-api.md, "operation
 * list"), made from the operations this panel answers at its version, so every listed one can be
 * called: tRPC (2.30 and before) paths `/api/trpc/<ns.proc>`, a read's input in the `input` query
 * parameter; 2.31–2.32 `servers: [{url: "/api/rpc"}]`, every path a POST, `operationId` `ns.proc`;
 * 2.33 OpenAPI 3.1, `servers: [{url: "/api"}]`, GET reads with query parameters, POST writes. Input
 * schemas `$ref` into `components.schemas`, as generated catalogues do.
 */

export type HostileCatalogue =
  /** Over Paneldeck's 16 MiB cap: one description of 17 MiB. */
  | 'huge'
  /** Under the cap, but millions of tiny values. */
  | 'many-values'
  /** Nested 200,000 levels deep inside a schema. */
  | 'deep'
  /** `$ref` cycles (self, A→B→A) and a fan-out that doubles at each of 40 levels. */
  | 'recursive'
  /** `paths` entries that are not operations, operations that are not objects, parameters that are not lists. */
  | 'wrong-shapes'
  /** Paths with absolute URLs, other hosts, `..`, encoded dots and slashes, beside one sound operation. */
  | 'escaping-paths'
  /** A server on another host (`serverUrl` names it; default https://elsewhere.invalid/api). */
  | 'escaping-server';

export interface CatalogueOptions {
  hostile?: HostileCatalogue;
  /** The server URL of `escaping-server`. */
  serverUrl?: string;
  /** Listed, not served: that many more operations (with input schemas), to reach a real panel's size (~375). */
  extraOperations?: number;
}

const NAME = { type: 'string', pattern: '^[a-z0-9-_]+$', minLength: 1, maxLength: 64 };
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const COMPONENTS = {
  Name: NAME,
  ServiceRef: {
    type: 'object',
    properties: { projectName: ref('Name'), serviceName: ref('Name') },
    required: ['projectName', 'serviceName'],
    additionalProperties: false,
  },
  LoginInput: {
    type: 'object',
    properties: {
      email: { type: 'string', format: 'email', maxLength: 320 },
      password: { type: 'string', minLength: 1 },
      rememberMe: { type: 'boolean' },
      code: { type: 'string', pattern: '^[0-9]{6}$' },
    },
    required: ['email', 'password'],
    additionalProperties: false,
  },
  ActionType: { type: 'string', enum: ['build', 'deployment', 'start', 'stop', 'restart', 'backup', 'volumeBackup'] },
};

/** A service's names, written out (2.33 lists a read's fields as query parameters). */
const SERVICE_FIELDS = {
  type: 'object',
  properties: { projectName: ref('Name'), serviceName: ref('Name') },
  required: ['projectName', 'serviceName'],
  additionalProperties: false,
};
const ID_INPUT = { type: 'object', properties: { id: { type: 'string', minLength: 1 } }, required: ['id'], additionalProperties: false };

/** Each route's input schema; absent: it takes none. */
const INPUTS: Partial<Record<Route, unknown>> = {
  login: ref('LoginInput'),
  listActions: {
    type: 'object',
    properties: {
      projectName: ref('Name'),
      serviceName: ref('Name'),
      type: ref('ActionType'),
      limit: { type: 'integer', minimum: 1, maximum: 100 },
    },
    additionalProperties: false,
  },
  getAction: ID_INPUT,
  killAction: ID_INPUT,
  // Reads: 2.33 lists their fields as query parameters, so they are written out here, not a $ref.
  inspectAppService: SERVICE_FIELDS,
  createProject: { type: 'object', properties: { name: ref('Name') }, required: ['name'], additionalProperties: false },
  // Backups: a service's schedules, and a run by the schedule's id.
  listDatabaseBackups: SERVICE_FIELDS,
  listVolumeBackups: SERVICE_FIELDS,
  runDatabaseBackup: ID_INPUT,
  runVolumeBackup: ID_INPUT,
};

function inputOf(operation: Operation): unknown {
  const given = INPUTS[operation.route];
  if (given !== undefined) return given;
  if (operation.kind === 'mutation' && /Service$/.test(operation.route) && operation.route !== 'logout') {
    return operation.route.startsWith('deploy')
      ? { allOf: [ref('ServiceRef'), { type: 'object', properties: { forceRebuild: { type: 'boolean' } } }] }
      : ref('ServiceRef');
  }
  return null;
}

const summaryOf = (operation: Operation, name: string) =>
  `${operation.kind === 'query' ? 'Reads' : 'Changes'}: ${name.replaceAll('/', '.')}`;

type PathItem = Record<string, unknown>;

/** One path item in the generation's shape. */
function pathItem(transport: Transport, operation: Operation, name: string, input: unknown): PathItem {
  const summary = summaryOf(operation, name);
  const body = input === null ? {} : { requestBody: { required: true, content: { 'application/json': { schema: input } } } };
  if (transport === 'rpc') {
    // As a real 2.32.2 catalogue has it: the request body described whole, the input inside `json`.
    const wrapped =
      input === null
        ? {}
        : {
            requestBody: {
              required: true,
              content: {
                'application/json': { schema: { type: 'object', properties: { json: input }, required: ['json'] } },
              },
            },
          };
    return { post: { operationId: name.replaceAll('/', '.'), summary, ...wrapped } };
  }
  if (transport === 'trpc') {
    if (operation.kind === 'mutation') return { post: { operationId: name, summary, ...body } };
    const parameters =
      input === null ? [] : [{ name: 'input', in: 'query', required: true, content: { 'application/json': { schema: input } } }];
    return { get: { operationId: name, summary, parameters } };
  }
  if (operation.kind === 'mutation') return { post: { operationId: name, summary, ...body } };
  // 2.33: a read's input as flat query parameters, each with its own schema.
  const object = (input ?? {}) as { properties?: Record<string, unknown>; required?: string[] };
  const parameters = Object.entries(object.properties ?? {}).map(([key, schema]) => ({
    name: key,
    in: 'query',
    required: object.required?.includes(key) ?? false,
    schema,
  }));
  return { get: { operationId: name, summary, parameters } };
}

const TRANSPORT: Readonly<Record<Exclude<PanelStyle, 'simple'>, Transport>> = { trpc: 'trpc', rpc: 'rpc', public: 'public' };

/** The catalogue a panel of `style` serves now. */
export function catalogueDocument(style: PanelStyle, options: ReferencePanelOptions, state: PanelState): Record<string, unknown> {
  if (style === 'simple') return {};
  const transport = TRANSPORT[style];
  const paths: Record<string, PathItem> = {};
  const prefix = transport === 'trpc' ? '/api/trpc/' : '/';
  for (const { operation, name } of servedOperations(OPERATIONS, transport, { options, state })) {
    // tRPC's writes only, from 2.31 on (its GETs are refused): the catalogue lists the generation's own routes.
    paths[`${prefix}${name}`] = pathItem(transport, operation, name, inputOf(operation));
  }
  const extra = options.catalogue?.extraOperations ?? 0;
  for (let index = 0; index < extra; index++) {
    const name =
      transport === 'rpc'
        ? `extra${index % 20}/updateSetting${index}`
        : transport === 'trpc'
          ? `extra${index % 20}.updateSetting${index}`
          : `updateSetting${index}`;
    const operation: Operation = {
      route: 'createProject',
      kind: index % 3 === 0 ? 'query' : 'mutation',
      trpc: null,
      rpc: null,
      public: null,
    };
    const input = {
      allOf: [
        ref('ServiceRef'),
        {
          type: 'object',
          properties: { value: { type: 'string', maxLength: 1000, description: 'x'.repeat(200) }, enabled: { type: 'boolean' } },
        },
      ],
    };
    paths[`${prefix}${name}`] = pathItem(transport, operation, name, input);
  }
  const servers = transport === 'rpc' ? [{ url: '/api/rpc' }] : transport === 'public' ? [{ url: '/api' }] : undefined;
  return {
    openapi: transport === 'public' ? '3.1.0' : '3.0.3',
    info: { title: 'Easypanel', version: state.version() ?? 'unknown' },
    ...(servers ? { servers } : {}),
    paths,
    components: { schemas: COMPONENTS },
  };
}

/** Answers `GET /api/openapi.json`; the hostile kinds are made in catalogue-hostile.ts. */
export function sendCatalogue(response: ServerResponse, document: Record<string, unknown>): void {
  sendJson(response, 200, document);
}
