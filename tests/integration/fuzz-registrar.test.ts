import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { argumentSchemas } from '../../shared/contract/contract.ts';
import { isErrorCode } from '../../shared/contract/errors.ts';
import { channelOf, methodNames, type MethodName } from '../../shared/contract/methods.ts';
import { createCore, type FetchLike, type Core } from '../../electron/core/index.ts';
import { registeredIpc, type FakeIpc } from '../support/fake-ipc.ts';
import { readAllFiles, tempDir, testEncryption } from '../support/helpers.ts';
import { DEMO_USER, startReferencePanel, type ReferencePanel } from '../support/reference-panel/server.ts';

/** The activity log's entry ids in order, each once: what a call adds, not when an outcome arrives. */
function activityEntryIds(content: string): string {
  const ids = content
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => (JSON.parse(line) as { id: string }).id);
  return [...new Set(ids)].join('\n');
}

/**
 * Every contract method, called through the registrar with generated payloads, answers with an
 * envelope: INVALID_INPUT for what does not fit the contract (data on disk untouched), or a
 * normal result. Methods and argument shapes are read from the contract itself, so a method added
 * there is fuzzed without touching this file.
 */

const RUNS_PER_METHOD = 300;
const RUNS_ANY_ARGS = 600;
/** The longest INVALID_INPUT message: five caller-chosen key names, each cut to 40 characters and JSON-escaped. */
const MAX_INVALID_INPUT_MESSAGE = 1500;
/** Any message: room for an address of 2048 characters quoted in a DUPLICATE_PANEL, far below a huge string. */
const MAX_MESSAGE = 4096;
const POLLUTION_MARKERS = ['polluted', 'isAdmin'];

// ---- Reading the contract's zod schemas -------------------------------------------------------

/** The part of a zod 4 schema's definition this file reads to build arguments of the right shape. */
interface SchemaDef {
  type: string;
  format?: string;
  items?: readonly SchemaLike[];
  shape?: Readonly<Record<string, SchemaLike>>;
  innerType?: SchemaLike;
  options?: readonly SchemaLike[];
  in?: SchemaLike;
  values?: readonly unknown[];
  entries?: Readonly<Record<string, unknown>>;
  checks?: readonly { _zod: { def: { check: string; maximum?: number } } }[];
}
interface SchemaLike {
  _zod: { def: SchemaDef };
}

function schemaOf(method: MethodName): SchemaLike {
  return argumentSchemas[method] as unknown as SchemaLike;
}

/** Optional, nullable and piped schemas wrap the one that says what the value is. */
function unwrap(schema: SchemaLike): SchemaLike {
  const def = schema._zod.def;
  if ((def.type === 'optional' || def.type === 'nullable') && def.innerType) return unwrap(def.innerType);
  if (def.type === 'pipe' && def.in) return unwrap(def.in);
  return schema;
}

/** The schema's own limit, capped: longer strings are the huge-string corruption's job. */
function maxLength(def: SchemaDef): number {
  const limits = (def.checks ?? []).map((check) => check._zod.def.maximum).filter((max): max is number => max !== undefined);
  return Math.min(64, ...limits);
}

/** Where a field can be corrupted: `[]` is the argument list, `[1]` the second argument, `[1, 'email']` a field of it. */
type Path = readonly (number | string)[];

function fieldPaths(schema: SchemaLike, prefix: Path = []): Path[] {
  const def = unwrap(schema)._zod.def;
  const paths: Path[] = [prefix];
  if (def.type === 'tuple') for (const [index, item] of (def.items ?? []).entries()) paths.push(...fieldPaths(item, [...prefix, index]));
  if (def.type === 'object') for (const [key, field] of Object.entries(def.shape ?? {})) paths.push(...fieldPaths(field, [...prefix, key]));
  return paths;
}

type Corruption = { kind: 'replace'; value: unknown } | { kind: 'delete' } | { kind: 'extraKey'; key: string; value: unknown };

// ---- Arbitraries ------------------------------------------------------------------------------

/** Panels the core holds now; refreshed after every case, read when an id is generated. */
const live = { ids: [] as string[] };

const HOSTILE_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'valueOf',
  'hasOwnProperty',
  '__defineGetter__',
  'then',
  'toJSON',
];

/** Own `__proto__`/`constructor` keys, as JSON.parse makes them (an object literal would set the prototype instead). */
const POLLUTION_JSON = [
  '{"__proto__":{"polluted":"yes"}}',
  '{"constructor":{"prototype":{"polluted":"yes"}}}',
  '{"prototype":{"polluted":"yes"}}',
  '{"address":"panel.example.com","__proto__":{"polluted":"yes"}}',
  '{"email":"demo@paneldeck.test","password":"x","__proto__":{"isAdmin":true}}',
  '{"name":"x","__proto__":null}',
  '{"__proto__":{"__proto__":{"polluted":"yes"}}}',
  '[{"__proto__":{"polluted":"yes"}},{"constructor":{"prototype":{"isAdmin":true}}}]',
];

/** Pieces of text that trip up naive string handling. */
const UNICODE_ODDITIES = [
  '\uD800',
  '\uDFFF',
  '\uDBFF\uD800', // lone and reversed surrogates
  '\u202E',
  '\u200F',
  '\u200E',
  '\u061C', // direction marks and overrides
  '\u200B',
  '\u200C',
  '\u200D',
  '\uFEFF',
  '\u2060', // zero-width
  '\u0000',
  '\u0007',
  '\u001B[31m',
  '\u007F',
  '\u0085', // NUL and other control characters
  '\u2028',
  '\u2029',
  '\u00A0',
  '\u3000', // odd line breaks and spaces
  '😀',
  '👩‍👩‍👧‍👦',
  '🏳️‍🌈',
  '\u{1F1FA}\u{1F1F8}',
  '𝕏', // emoji, ZWJ sequences, astral
  'e\u0301',
  '\u0301\u0302\u0303\u0304',
  'Z̤͔ͧ̑̓ä͖̭̈̇l͖͎g̞̥͈ͮo', // combining marks
  '\uFFFE',
  '\uFFFF',
  '\u{10FFFF}',
  'İ',
  'ß',
  'ﬃ',
  'ا',
  'Ⅻ',
];

interface Fixtures {
  plausible: string[];
}

function arbitraries(fixtures: Fixtures) {
  const hostileKey = fc.oneof(fc.constantFrom(...HOSTILE_KEYS), fc.string({ maxLength: 8 }));
  const anything = fc.anything({
    key: hostileKey,
    maxDepth: 3,
    maxKeys: 5,
    withBigInt: true,
    withBoxedValues: true,
    withDate: true,
    withMap: true,
    withSet: true,
    withNullPrototype: true,
    withObjectString: true,
    withSparseArray: true,
    withTypedArray: true,
    withUnicodeString: true,
  });
  const pollution = fc.constantFrom(...POLLUTION_JSON).map((json): unknown => JSON.parse(json));
  const huge = fc
    .tuple(fc.integer({ min: 100_000, max: 1_000_000 }), fc.constantFrom('a', 'é', '😀', '\u0000', ' ', '\u202E', 'panel.example.com/'))
    .map(([length, unit]) => unit.repeat(Math.ceil(length / unit.length)).slice(0, length));
  const oddText = fc
    .array(
      fc.oneof(fc.constantFrom(...UNICODE_ODDITIES), fc.constantFrom(...fixtures.plausible), fc.string({ unit: 'binary', maxLength: 4 })),
      { minLength: 1, maxLength: 6 },
    )
    .map((pieces) => pieces.join(''));
  const knownId = fc.nat(7).map((index) => live.ids[index % Math.max(1, live.ids.length)] ?? crypto.randomUUID());
  const panelId = fc.oneof({ arbitrary: knownId, weight: 3 }, { arbitrary: fc.uuid(), weight: 1 });
  const text = (max: number) =>
    fc.oneof(
      { arbitrary: fc.constantFrom(...fixtures.plausible), weight: 4 },
      { arbitrary: fc.string({ maxLength: max }), weight: 2 },
      { arbitrary: oddText, weight: 1 },
    );

  /** Arguments that have the shape the schema asks for (their content may still be refused later). */
  function shaped(schema: SchemaLike): fc.Arbitrary<unknown> {
    const def = schema._zod.def;
    switch (def.type) {
      case 'tuple':
        return fc.tuple(...(def.items ?? []).map(shaped));
      case 'object': {
        const fields = Object.entries(def.shape ?? {});
        const model: Record<string, fc.Arbitrary<unknown>> = {};
        for (const [key, field] of fields)
          model[key] = shaped(field._zod.def.type === 'optional' && field._zod.def.innerType ? field._zod.def.innerType : field);
        const requiredKeys = fields.filter(([, field]) => field._zod.def.type !== 'optional').map(([key]) => key);
        return fc.record(model, { requiredKeys });
      }
      case 'optional':
        return fc.option(shaped(def.innerType!), { nil: undefined });
      case 'nullable':
        return fc.option(shaped(def.innerType!), { nil: null });
      case 'pipe':
        return shaped(def.in!);
      case 'union':
        return fc.oneof(...(def.options ?? []).map(shaped));
      case 'literal':
        return fc.constantFrom(...(def.values ?? [null]));
      case 'enum':
        return fc.constantFrom(...Object.values(def.entries ?? { none: null }));
      case 'boolean':
        return fc.boolean();
      case 'number':
        return fc.oneof(fc.integer(), fc.double());
      case 'string':
        return def.format === 'uuid' ? panelId : text(maxLength(def));
      default:
        // A kind of schema this file does not know yet: anything at all is still a fair test.
        return anything;
    }
  }

  const corruption: fc.Arbitrary<Corruption> = fc.oneof(
    fc.record({
      kind: fc.constant('replace' as const),
      value: fc.oneof(anything, pollution, fc.constantFrom<unknown>(undefined, null, NaN, -0, Infinity, 10n, true, [], {}, '')),
    }),
    fc.record({ kind: fc.constant('replace' as const), value: huge }),
    fc.record({ kind: fc.constant('replace' as const), value: oddText }),
    fc.record({ kind: fc.constant('replace' as const), value: fc.uuid() }),
    fc.constant({ kind: 'delete' as const }),
    fc.record({
      kind: fc.constant('extraKey' as const),
      key: fc.oneof(fc.constantFrom(...HOSTILE_KEYS), oddText, huge),
      value: fc.oneof(pollution, anything),
    }),
  );

  /** Valid-shaped arguments with one field corrupted: wrong type, missing, huge, odd Unicode, extra key. */
  function corrupted(method: MethodName): fc.Arbitrary<unknown[]> {
    const schema = schemaOf(method);
    const paths = fieldPaths(schema);
    return fc
      .tuple(shaped(schema), fc.nat(paths.length - 1), corruption)
      .map(([args, pathIndex, change]) => corrupt(args as unknown[], paths[pathIndex] ?? [], change));
  }

  /** Valid-shaped arguments, one too few or with extra ones after them. */
  function wrongArity(method: MethodName): fc.Arbitrary<unknown[]> {
    return fc
      .tuple(shaped(schemaOf(method)), fc.array(fc.oneof(anything, pollution), { minLength: 0, maxLength: 3 }), fc.boolean())
      .map(([args, extra, drop]) => {
        const list = [...(args as unknown[])];
        return drop ? list.slice(0, Math.max(0, list.length - 1)) : [...list, ...extra];
      })
      .filter((args) => args.length !== shapedLength(method));
  }

  /** Anything at all, in any number, including objects with own prototype-pollution keys. */
  const anyArgs = fc.array(fc.oneof(anything, pollution, huge, oddText, panelId), { maxLength: 4 });

  function forMethod(method: MethodName): fc.Arbitrary<unknown[]> {
    return fc.oneof(
      { arbitrary: shaped(schemaOf(method)).map((args) => args as unknown[]), weight: 2 },
      { arbitrary: corrupted(method), weight: 6 },
      { arbitrary: wrongArity(method), weight: 1 },
      { arbitrary: anyArgs, weight: 1 },
    );
  }

  return { forMethod, anyArgs };
}

function shapedLength(method: MethodName): number {
  return schemaOf(method)._zod.def.items?.length ?? 0;
}

/** Copies the generated arguments (plain arrays and objects) and applies one change at `path`. */
function corrupt(args: unknown[], path: Path, change: Corruption): unknown[] {
  const copy = structuredClone(args);
  if (change.kind === 'extraKey') {
    let target: unknown = copy;
    for (const step of path) {
      const next = (target as Record<string | number, unknown>)[step];
      if (typeof next !== 'object' || next === null) break;
      target = next;
    }
    if (Array.isArray(target)) target.push(withOwnKey({}, change.key, change.value));
    else withOwnKey(target as object, change.key, change.value);
    return copy;
  }
  if (path.length === 0) return change.kind === 'replace' ? [...copy, change.value] : copy.slice(0, -1);
  let parent: unknown = copy;
  for (const step of path.slice(0, -1)) {
    parent = (parent as Record<string | number, unknown>)[step];
    if (typeof parent !== 'object' || parent === null) return copy;
  }
  const last = path.at(-1)!;
  if (change.kind === 'replace') withOwnKey(parent as object, String(last), change.value);
  else if (Array.isArray(parent) && typeof last === 'number') parent.splice(last, 1);
  else delete (parent as Record<string, unknown>)[String(last)];
  return copy;
}

/** Sets an own, enumerable key even when it is `__proto__`, which plain assignment would not. */
function withOwnKey<T extends object>(target: T, key: string, value: unknown): T {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  return target;
}

// ---- The run ----------------------------------------------------------------------------------

/** Every own property of the built-in prototypes a payload could try to write to. */
function prototypeFingerprint(): string[] {
  const prototypes: [string, object][] = [
    ['Object', Object.prototype],
    ['Array', Array.prototype],
    ['Function', Function.prototype],
    ['String', String.prototype],
  ];
  return prototypes.flatMap(([name, prototype]) =>
    Reflect.ownKeys(prototype).map((key) => {
      const descriptor = Object.getOwnPropertyDescriptor(prototype, key);
      return `${name}.${String(key)}:${typeof descriptor?.value}:${typeof descriptor?.get}`;
    }),
  );
}

describe('the registrar under fuzzed input', () => {
  let reference: ReferencePanel;
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let core: Core;
  let ipc: FakeIpc;
  let gen: ReturnType<typeof arbitraries>;
  const prototypesBefore = prototypeFingerprint();
  const crashes: unknown[] = [];
  const onCrash = (error: unknown) => crashes.push(error);
  const counts = { cases: 0, invalid: 0, ok: 0, otherErrors: 0 };
  let started = 0;

  before(async () => {
    started = performance.now();
    process.on('unhandledRejection', onCrash);
    process.on('uncaughtException', onCrash);
    reference = await startReferencePanel();
    dir = await tempDir('paneldeck-fuzz-');
    const referenceOrigin = new URL(reference.url).origin;
    // Only the reference panel is reachable: addresses made up by the fuzzer must not reach the network.
    const fetchOnlyReference: FetchLike = (url, init) =>
      new URL(url).origin === referenceOrigin
        ? fetch(url, init)
        : Promise.reject(
            new TypeError('fetch failed', { cause: Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' }) }),
          );
    core = createCore({ dataDir: dir.path, encryption: testEncryption(), fetch: fetchOnlyReference, timeoutMs: 2000 });
    ipc = registeredIpc({ core });
    await core.addPanel({ address: 'panel.example.com', name: 'Not signed in' });
    await restoreFixtures();
    gen = arbitraries({
      plausible: [
        reference.url,
        new URL(reference.url).host,
        'panel.example.com',
        'https://Panel.Example.com/api/',
        'Main',
        '',
        ' ',
        DEMO_USER.email,
        DEMO_USER.password,
        '/login',
        '/auth/login',
        'data.auth.token',
        'token',
      ],
    });
  });

  after(async () => {
    process.off('unhandledRejection', onCrash);
    process.off('uncaughtException', onCrash);
    await reference?.close();
    await dir?.cleanup();
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(
      `fuzz: ${counts.cases} cases across ${methodNames.length} methods in ${seconds} s ` +
        `(${counts.invalid} INVALID_INPUT, ${counts.ok} ok, ${counts.otherErrors} other errors)`,
    );
  });

  /** Two panels, one of them the reference panel, signed in: whatever the last case did to them. */
  async function restoreFixtures(): Promise<void> {
    let panels = await core.listPanels();
    let home = panels.find((panel) => panel.baseUrl === reference.baseUrl);
    home ??= await core.addPanel({ address: reference.url, name: 'Reference' });
    if (home.loginPath !== '/login' || home.tokenField !== null)
      home = await core.updatePanel(home.id, { loginPath: null, tokenField: null });
    if (!home.signedIn) await core.logIn(home.id, { email: DEMO_USER.email, password: DEMO_USER.password });
    panels = await core.listPanels();
    if (panels.length < 2) await core.addPanel({ address: `spare-${panels.length}.example.com` });
    panels = await core.listPanels();
    // The signed-in reference panel first, so that a known id is most often the interesting one.
    live.ids = [home.id, ...panels.filter((panel) => panel.id !== home.id).map((panel) => panel.id)];
  }

  async function snapshot() {
    // Check history is written coalesced, a while after the call that changed it: land it first.
    await core.flush();
    // An earlier log out's request to end the session at the panel is sent unwaited, and its outcome
    // lands in the activity log whenever the panel answers: the log is compared by its entries, so
    // that such a line is not taken for this call's, while an entry this call added still shows.
    const files = (await readAllFiles(dir.path))
      .map(({ path, content }) => `${path}\n${path.endsWith('activity.jsonl') ? activityEntryIds(content) : content}`)
      .sort();
    return { files, panels: JSON.stringify(await core.listPanels()) };
  }

  /** One call through the registrar, and everything that must hold of its answer. */
  async function check(method: MethodName, args: unknown[]): Promise<void> {
    counts.cases++;
    const was = await snapshot();
    const fitsContract = argumentSchemas[method].safeParse(args).success;
    let answer: unknown;
    try {
      answer = await ipc.call(channelOf(method), ...args);
    } catch (error) {
      assert.fail(`${method}: the handler rejected instead of answering with an envelope: ${String(error)}`);
    }
    assert.ok(typeof answer === 'object' && answer !== null && 'ok' in answer, `${method}: not an envelope`);
    const envelope = answer as { ok: true; value: unknown } | { ok: false; error: { code: unknown; message: unknown } };
    if (envelope.ok) {
      counts.ok++;
      assert.ok(fitsContract, `${method}: arguments that do not fit the contract were accepted`);
      // The value must survive the structured clone that carries it to the renderer.
      structuredClone(envelope.value);
      return restoreFixtures();
    }
    const { code, message } = envelope.error;
    assert.ok(isErrorCode(code), `${method}: ${String(code)} is not a contract error code`);
    assert.notEqual(code, 'INTERNAL', `${method}: a bug in main answered INTERNAL`);
    assert.equal(typeof message, 'string');
    assert.ok((message as string).length <= MAX_MESSAGE, `${method}: ${code} message of ${(message as string).length} characters`);
    if (!fitsContract)
      assert.equal(code, 'INVALID_INPUT', `${method}: arguments outside the contract answered ${code}: ${String(message)}`);
    if (code === 'INVALID_INPUT') {
      counts.invalid++;
      assert.ok(
        (message as string).length <= MAX_INVALID_INPUT_MESSAGE,
        `${method}: INVALID_INPUT message of ${(message as string).length} characters`,
      );
      const afterwards = await snapshot();
      assert.deepEqual(afterwards.files, was.files, `${method}: INVALID_INPUT changed the files in the data folder`);
      assert.equal(afterwards.panels, was.panels, `${method}: INVALID_INPUT changed the panels in memory`);
    } else {
      counts.otherErrors++;
    }
    return restoreFixtures();
  }

  for (const method of methodNames) {
    test(`${method}: every payload answers with an envelope; INVALID_INPUT leaves the data alone`, async (t) => {
      // A bug would be reported on the console; the assertion on INTERNAL says which call it was.
      t.mock.method(console, 'error', () => undefined);
      await fc.assert(
        fc.asyncProperty(gen.forMethod(method), (args) => check(method, args)),
        { numRuns: RUNS_PER_METHOD },
      );
    });
  }

  test('any method with any arguments at all', async (t) => {
    t.mock.method(console, 'error', () => undefined);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...methodNames), gen.anyArgs, (method, args) => check(method, args)),
      { numRuns: RUNS_ANY_ARGS },
    );
  });

  test('afterwards: no prototype was polluted, nothing crashed, both kinds of answer were seen', () => {
    assert.deepEqual(prototypeFingerprint(), prototypesBefore);
    for (const marker of POLLUTION_MARKERS) assert.equal(({} as Record<string, unknown>)[marker], undefined, `Object.prototype.${marker}`);
    assert.deepEqual(crashes, []);
    // A fuzzer that only ever produced invalid input, or never did, would prove little.
    assert.ok(counts.invalid > counts.cases / 4, `only ${counts.invalid} of ${counts.cases} cases were INVALID_INPUT`);
    assert.ok(counts.ok > counts.cases / 20, `only ${counts.ok} of ${counts.cases} cases succeeded`);
  });
});
