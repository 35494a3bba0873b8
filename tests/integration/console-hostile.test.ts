import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import { CUT_SCHEMA_MARK } from '../../shared/operations-console.ts';
import { keeping, rejectsWith, tempDir } from '../support/helpers.ts';
import { type CatalogueOptions, type ReferencePanel, startReferencePanel } from '../support/reference-panel/server.ts';
import { EASYPANEL_GENERATIONS, openSignedIn } from '../support/signed-in-core.ts';

/**
 * Hostile catalogues: too large, too many values, too deep, recursive `$ref`s, wrong shapes, paths
 * and servers leading out of the panel's /api. Each is refused with a clear message or read as far
 * as it is sound; the event loop keeps turning; nothing is ever sent outside /api of the panel
 * (counted at the servers, and at a second panel standing for "elsewhere"); the token is in no
 * answer or error.
 */

let dir: Awaited<ReturnType<typeof tempDir>>;
beforeEach(async () => {
  dir = await tempDir();
});
afterEach(() => dir.cleanup());

/** A panel of `style` serving `catalogue`, with a signed-in core. */
async function hostile(style: (typeof EASYPANEL_GENERATIONS)[number], catalogue: CatalogueOptions) {
  const panel = await startReferencePanel({ style, catalogue });
  const signed = await openSignedIn(dir.path, panel);
  panel.requests.splice(0);
  return { panel, ...signed };
}

/** Turns of the event loop while `work` runs: a part of main that never yields would leave this near zero. */
async function countingTurns<T>(work: () => Promise<T>): Promise<{ value: T; turns: number }> {
  let turns = 0;
  let running = true;
  const turn = () => {
    turns++;
    if (running) setImmediate(turn);
  };
  setImmediate(turn);
  try {
    return { value: await work(), turns };
  } finally {
    running = false;
  }
}

describe('catalogues refused whole', () => {
  for (const [kind, code, words] of [
    ['huge', 'RESPONSE_TOO_LARGE', /larger than 16\.0 MiB/],
    ['many-values', 'RESPONSE_TOO_LARGE', /holds more than 500,000 values/],
    ['deep', 'BAD_RESPONSE', /nested more than 256 levels/],
    ['escaping-server', 'BAD_RESPONSE', /elsewhere\.invalid.*not to the panel’s own \/api/],
  ] as const) {
    test(`${kind}: ${code}, and nothing else is asked of the panel`, async () => {
      const { panel, core, id, token } = await hostile('public', { hostile: kind });
      try {
        const error = await rejectsWith(core.getOperations(id), code, words);
        assert.ok(!error.message.includes(token));
        assert.deepEqual(
          panel.requests.map((request) => request.path),
          ['/api/openapi.json'],
        );
      } finally {
        await panel.close();
      }
    });
  }

  test('servers leading elsewhere in any spelling are refused, and "elsewhere" hears nothing', async () => {
    const elsewhere = await startReferencePanel({ style: 'public' });
    try {
      for (const serverUrl of [
        `${elsewhere.url}/api`,
        `//127.0.0.1:${elsewhere.port}/api`,
        '/api/../admin',
        '/api/rpc/../../admin',
        '/api/%2e%2e/admin',
        'api',
        '/',
      ]) {
        const { panel, core, id } = await hostile('rpc', { hostile: 'escaping-server', serverUrl });
        try {
          await rejectsWith(core.getOperations(id), 'BAD_RESPONSE', /refused the panel's catalogue/);
          await rejectsWith(core.callOperation(id, { operation: 'update.getStatus', input: null }), 'BAD_RESPONSE');
          assert.ok(
            panel.requests.every((request) => request.path === '/api/openapi.json'),
            serverUrl,
          );
        } finally {
          await panel.close();
        }
      }
      assert.deepEqual(elsewhere.requests, []);
    } finally {
      await elsewhere.close();
    }
  });
});

describe('catalogues read as far as they are sound', () => {
  for (const style of EASYPANEL_GENERATIONS) {
    test(`${style}: paths out of /api (absolute, other hosts, .., encoded dots) are skipped; only the sound operation is offered and sent`, async () => {
      const { panel, core, id, token } = await hostile(style, { hostile: 'escaping-paths' });
      const seen: unknown[] = [];
      try {
        const catalogue = await keeping(seen, core.getOperations(id));
        // Under /api/rpc, `/admin/steal` is the RPC layer's own `admin.steal`: inside the panel's API, so offered.
        const inside = style === 'rpc' ? ['admin.steal'] : [];
        assert.deepEqual(
          catalogue.operations.map((operation) => operation.name),
          [style === 'public' ? 'getUpdateStatus' : 'update.getStatus', ...inside],
        );
        assert.equal(catalogue.skipped.length, 14 - inside.length, JSON.stringify(catalogue.skipped));
        for (const skipped of catalogue.skipped)
          assert.match(skipped.reason, /leads outside the panel’s \/api|not in the form|may be a secret/);
        await keeping(seen, core.callOperation(id, { operation: catalogue.operations[0]!.name, input: null }));
        // Names a catalogue could not offer: refused by the arguments' schema or not found, never sent.
        for (const name of ['../admin', 'elsewhere.invalid', '%2e%2e', 'https://elsewhere.invalid/api', 'a b']) {
          await assert.rejects(core.callOperation(id, { operation: name, input: null }), (error: { code?: string }) =>
            ['INVALID_INPUT', 'NOT_FOUND'].includes(error.code ?? ''),
          );
        }
        for (const request of panel.requests) {
          assert.match(
            request.path,
            /^\/api\/(openapi\.json|getUpdateStatus|rpc\/update\/getStatus|trpc\/update\.getStatus)/,
            request.path,
          );
        }
        assert.ok(catalogue.skipped.some((skipped) => skipped.reason === 'its name holds what may be a secret'));
        assert.ok(!JSON.stringify(seen).includes(token), 'the token echoed in a path or summary reached the window');
      } finally {
        await panel.close();
      }
    });
  }

  test('recursive $refs are cut and marked, a missing or external one skips its operation, a fan-out past the bound is skipped', async () => {
    const { panel, core, id } = await hostile('public', { hostile: 'recursive' });
    try {
      const { value: catalogue, turns } = await countingTurns(() => core.getOperations(id));
      assert.ok(turns > 0);
      const byName = new Map(catalogue.operations.map((operation) => [operation.name, operation]));
      assert.deepEqual([...byName.keys()].sort(), ['getUpdateStatus', 'writeA', 'writeSelf']);
      assert.match(JSON.stringify(byName.get('writeSelf')!.input), new RegExp(`"${CUT_SCHEMA_MARK}":"cycle"`));
      assert.match(JSON.stringify(byName.get('writeA')!.input), new RegExp(`"${CUT_SCHEMA_MARK}":"cycle"`));
      const reasons = Object.fromEntries(catalogue.skipped.map((skipped) => [skipped.name, skipped.reason]));
      assert.match(reasons.writeMissing!, /does not have/);
      assert.match(reasons.writeExternal!, /outside the catalogue/);
      assert.match(reasons.writeFan0!, /more than 5,000 parts/);
      // A cut part takes any JSON: the call goes, the panel says what it thinks.
      const answer = await core.callOperation(id, { operation: 'writeSelf', input: { child: { child: { anything: [1, 2] } } } });
      assert.equal(answer.status, 404);
    } finally {
      await panel.close();
    }
  });

  test('wrong shapes skip their operations with a reason; the rest is offered', async () => {
    const { panel, core, id } = await hostile('trpc', { hostile: 'wrong-shapes' });
    try {
      const catalogue = await core.getOperations(id);
      const names = catalogue.operations.map((operation) => operation.name).sort();
      assert.ok(names.includes('update.getStatus'));
      assert.ok(!names.some((name) => /notAnObject|listNotObject|methodNotObject|paramsNotList|bodyNotSchema/.test(name)), names.join());
      assert.ok(catalogue.skipped.length >= 5, JSON.stringify(catalogue.skipped));
      for (const skipped of catalogue.skipped) assert.ok(skipped.name.length <= 120 && skipped.reason.length > 0);
    } finally {
      await panel.close();
    }
  });

  test('a catalogue of 3,000 operations is read in slices: the event loop turns many times meanwhile', async () => {
    const { panel, core, id } = await hostile('public', { extraOperations: 3000 });
    try {
      const { value: catalogue, turns } = await countingTurns(() => core.getOperations(id));
      assert.ok(catalogue.operations.length > 3000);
      assert.ok(turns >= 5, `${turns} turns`);
    } finally {
      await panel.close();
    }
  });
});

describe('the reference panel lists only what it answers', () => {
  let panel: ReferencePanel;
  before(async () => {
    panel = await startReferencePanel({ style: 'rpc' });
  });
  after(() => panel.close());
  test('2.32: servers /api/rpc, every path a POST, operationId ns.proc', async () => {
    const document = (await (await fetch(`${panel.url}/api/openapi.json`)).json()) as {
      servers: { url: string }[];
      paths: Record<string, Record<string, { operationId: string }>>;
    };
    assert.deepEqual(document.servers, [{ url: '/api/rpc' }]);
    for (const [path, item] of Object.entries(document.paths)) {
      assert.deepEqual(Object.keys(item), ['post'], path);
      assert.equal(item.post!.operationId, path.slice(1).replaceAll('/', '.'));
    }
  });
});
