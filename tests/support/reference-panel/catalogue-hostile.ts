import type { ServerResponse } from 'node:http';
import type { CatalogueOptions } from './openapi.ts';
import type { PanelStyle } from './types.ts';

/**
 * The broken and hostile catalogues `CatalogueOptions.hostile` serves, each in the generation's
 * shape where it has one, so that only the hostile part is what a client must refuse.
 */

const MIB = 1024 * 1024;

function base(style: PanelStyle): { servers?: { url: string }[]; prefix: string } {
  if (style === 'rpc') return { servers: [{ url: '/api/rpc' }], prefix: '/' };
  if (style === 'public') return { servers: [{ url: '/api' }], prefix: '/' };
  return { prefix: '/api/trpc/' };
}

/** A sound read the client may keep beside the hostile entries: `getUpdateStatus` in the generation's naming. */
function soundRead(style: PanelStyle, summary = 'The version'): [string, unknown] {
  const name = style === 'rpc' ? 'update/getStatus' : style === 'trpc' ? 'update.getStatus' : 'getUpdateStatus';
  const method = style === 'rpc' ? 'post' : 'get';
  return [`${base(style).prefix}${name}`, { [method]: { operationId: name.replace('/', '.'), summary } }];
}

function write(response: ServerResponse, text: string): void {
  response.writeHead(200, { 'content-type': 'application/json' });
  response.end(text);
}

/** `token`: the caller's, which the escaping catalogue puts in a path and a summary, as a panel echoing it would. */
export function sendHostileCatalogue(response: ServerResponse, style: PanelStyle, options: CatalogueOptions, token: string): void {
  const { servers, prefix } = base(style);
  const head = (paths: Record<string, unknown>, components: Record<string, unknown> = {}) =>
    JSON.stringify({
      openapi: '3.1.0',
      info: { title: 'Easypanel', version: 'x' },
      ...(servers ? { servers } : {}),
      paths,
      components: { schemas: components },
    });
  const [soundPath, soundItem] = soundRead(style);
  switch (options.hostile) {
    case 'huge':
      return write(response, head({ [soundPath]: soundItem }).replace('"Easypanel"', `"${'E'.repeat(17 * MIB)}"`));
    case 'many-values':
      return write(response, head({ [soundPath]: soundItem }).replace('"paths"', `"x-junk":[${'0,'.repeat(3 * MIB)}0],"paths"`));
    case 'deep':
      return write(
        response,
        head({ [soundPath]: soundItem }, { Deep: 'DEEP' }).replace('"DEEP"', `${'{"items":'.repeat(200_000)}{}${'}'.repeat(200_000)}`),
      );
    case 'recursive': {
      const components: Record<string, unknown> = {
        Self: { type: 'object', properties: { child: { $ref: '#/components/schemas/Self' } } },
        A: { type: 'object', properties: { b: { $ref: '#/components/schemas/B' } } },
        B: { type: 'array', items: { $ref: '#/components/schemas/A' } },
        Missing: { $ref: '#/components/schemas/Nowhere' },
        External: { $ref: 'https://elsewhere.invalid/schema.json' },
      };
      // Each level refers eight times to the next: 8^40 nodes if inlined without a bound.
      for (let level = 0; level < 40; level++) {
        const next = { $ref: `#/components/schemas/Fan${level + 1}` };
        components[`Fan${level}`] = {
          type: 'object',
          properties: Object.fromEntries(Array.from({ length: 8 }, (_, index) => [`p${index}`, next])),
        };
      }
      components.Fan40 = { type: 'string' };
      const body = (name: string) => ({
        requestBody: { content: { 'application/json': { schema: { $ref: `#/components/schemas/${name}` } } } },
      });
      const writePath = (name: string) => `${prefix}${style === 'rpc' ? `cycles/${name}` : style === 'trpc' ? `cycles.${name}` : name}`;
      const paths: Record<string, unknown> = { [soundPath]: soundItem };
      for (const name of ['Self', 'A', 'Missing', 'External', 'Fan0'])
        paths[writePath(`write${name}`)] = { post: { summary: name, ...body(name) } };
      return write(response, head(paths, components));
    }
    case 'wrong-shapes': {
      const name = (text: string) => `${prefix}${style === 'rpc' ? `broken/${text}` : style === 'trpc' ? `broken.${text}` : text}`;
      const paths = {
        [soundPath]: soundItem,
        [name('notAnObject')]: 'GET',
        [name('listNotObject')]: [1, 2, 3],
        [name('methodNotObject')]: { get: 42, post: null },
        [name('paramsNotList')]: { get: { parameters: { name: 'input' } } },
        [name('bodyNotSchema')]: { post: { requestBody: { content: { 'application/json': { schema: 12 } } } } },
        [name('summaryNotText')]: { post: { summary: { text: 'x' }, operationId: 7 } },
        [name(`long${'x'.repeat(5000)}`)]: { post: {} },
      };
      return write(response, head(paths));
    }
    case 'escaping-paths': {
      const paths: Record<string, unknown> = Object.fromEntries([soundRead(style, `Echoes ${token}`)]);
      const bad = [
        `${prefix}${token}`,
        `https://elsewhere.invalid/${token}`,
        'https://elsewhere.invalid/api/steal',
        '//elsewhere.invalid/api/steal',
        `${prefix}../admin`,
        `${prefix}%2e%2e/admin`,
        `${prefix}%2E%2E%2Fadmin`,
        `${prefix}..%2fadmin`,
        `${prefix}a/..`,
        `${prefix}steal?x=1`,
        `${prefix}steal#frag`,
        `${prefix}back\\slash`,
        '/admin/steal',
        `${prefix}@elsewhere.invalid`,
      ];
      for (const path of bad) paths[path] = { post: { summary: 'hostile' } };
      return write(response, head(paths));
    }
    case 'escaping-server': {
      const server = options.serverUrl ?? 'https://elsewhere.invalid/api';
      return write(
        response,
        JSON.stringify({
          openapi: '3.1.0',
          info: { title: 'x', version: 'x' },
          servers: [{ url: server }],
          paths: { '/getUpdateStatus': { get: {} }, '/update/getStatus': { post: {} } },
        }),
      );
    }
    default:
      return write(response, '{}');
  }
}
