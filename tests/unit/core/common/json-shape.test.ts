import assert from 'node:assert/strict';
import { serialize } from 'node:v8';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { createCore, type Core } from '../../../../electron/core/index.ts';
import { checkJsonShape, PANEL_ANSWER_LIMITS } from '../../../../electron/core/common/json-shape.ts';
import { HIDDEN_SECRET } from '../../../../electron/core/secrets/session-redaction.ts';
import { rejectsWith, tempDir, testEncryption } from '../../../support/helpers.ts';
import { DEMO_USER, startReferencePanel, type ReferencePanel } from '../../../support/reference-panel/server.ts';

const MiB = 1024 * 1024;
const { maxDepth: MAX_ANSWER_DEPTH, maxValues: MAX_ANSWER_VALUES } = PANEL_ANSWER_LIMITS;
const limits = { maxDepth: 10, maxValues: 50 };

/** Depth (containers open at once) and value count of parsed JSON, the slow and sure way. */
function measureParsed(root: unknown): { depth: number; values: number } {
  let depth = 0;
  let values = 0;
  const stack: { value: unknown; level: number }[] = [{ value: root, level: 0 }];
  for (let next = stack.pop(); next; next = stack.pop()) {
    values++;
    if (typeof next.value !== 'object' || next.value === null) continue;
    depth = Math.max(depth, next.level + 1);
    for (const item of Object.values(next.value)) stack.push({ value: item, level: next.level + 1 });
  }
  return { depth, values };
}

/** `open` `levels` times, `middle`, then `close` as often. */
function nested(open: string, close: string, levels: number, middle = ''): string {
  return open.repeat(levels) + middle + close.repeat(levels);
}

/** Valid JSON of as many levels of `open`…`close` around `middle` as fit in `bytes`. */
function nestedToSize(open: string, close: string, bytes: number, middle = ''): string {
  return nested(open, close, Math.floor((bytes - middle.length) / (open.length + close.length)), middle);
}

describe('checkJsonShape', () => {
  test('counts as JSON.parse sees it, whatever the strings hold', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.jsonValue(), fc.jsonValue({ stringUnit: 'binary' })),
        fc.constantFrom(undefined, 2, '\t'),
        (value, indent) => {
          const text = JSON.stringify(value, null, indent);
          const expected = measureParsed(JSON.parse(text));
          assert.deepEqual(checkJsonShape(text, { maxDepth: 1000, maxValues: 100_000 }), { ok: true, ...expected });
        },
      ),
      { numRuns: 500 },
    );
  });

  test('brackets inside strings do not count; escaped quotes do not end a string', () => {
    const brackets = JSON.stringify({ a: '[[[[[[[[[[[[[[[[[[[[{{{{{{{{{{{{{', b: ['\\', '"[[[[[[[[[[[[[[[[', '\\"{{{{{{{{{{{{{'] });
    assert.deepEqual(checkJsonShape(brackets, limits), { ok: true, depth: 2, values: 6 });
    // After a string that ends in a backslash, the brackets are real.
    assert.deepEqual(checkJsonShape(`["\\\\",${nested('[', ']', 10)}]`, limits), { ok: false, exceeded: 'depth', limit: 10 });
    // Closers hidden in strings do not hide real depth either.
    assert.deepEqual(checkJsonShape(`${'["]}\\"]",'.repeat(11)}0${']'.repeat(11)}`, limits), { ok: false, exceeded: 'depth', limit: 10 });
  });

  test('the limits are inclusive; going over stops the scan', () => {
    assert.deepEqual(checkJsonShape(nested('[', ']', 10), limits), { ok: true, depth: 10, values: 10 });
    assert.deepEqual(checkJsonShape(nested('{"a":', '}', 11), limits), { ok: false, exceeded: 'depth', limit: 10 });
    const fifty = JSON.stringify(Array.from({ length: 49 }, (_, index) => (index % 2 ? `v${index}` : index)));
    assert.deepEqual(checkJsonShape(fifty, limits), { ok: true, depth: 1, values: 50 });
    assert.deepEqual(checkJsonShape(JSON.stringify(Array(50).fill(true)), limits), { ok: false, exceeded: 'values', limit: 50 });
    // Keys are not values: 49 entries are 50 values with the object.
    const keys = JSON.stringify(Object.fromEntries(Array.from({ length: 49 }, (_, index) => [`k${index}`, null])));
    assert.deepEqual(checkJsonShape(keys, limits), { ok: true, depth: 1, values: 50 });
    assert.deepEqual(checkJsonShape(`[${'"x",'.repeat(60)}`, limits), { ok: false, exceeded: 'values', limit: 50 });
    // Cut off: the open levels still count.
    assert.deepEqual(checkJsonShape('['.repeat(4 * MiB), limits), { ok: false, exceeded: 'depth', limit: 10 });
  });

  test('texts that are not an array or an object pass, for JSON.parse to judge', () => {
    for (const text of ['', '   ', '"[[[[[[[[[[[[[["', '42', 'null', '<html>[[[[[[[[[[[[[[[[</html>', 'not json [[[[[[[[[[[[[[[[[[']) {
      assert.equal(checkJsonShape(text, limits).ok, true, text);
    }
  });
});

describe('answers too deep or too big for main, through a real core over loopback', () => {
  let panel: ReferencePanel;
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let core: Core;
  let panelId: string;
  let token: string;

  before(async () => {
    panel = await startReferencePanel();
    dir = await tempDir();
    // The app's own size cap (4 MiB): the hostile answers are as large as it lets through.
    core = createCore({ dataDir: dir.path, encryption: testEncryption() });
    panelId = (await core.addPanel({ address: panel.url })).id;
    await core.logIn(panelId, { email: DEMO_USER.email, password: DEMO_USER.password });
    const issued = panel.issuedTokens()[0];
    assert.ok(issued);
    token = issued;
  });
  after(async () => {
    await panel.close();
    await dir.cleanup();
  });

  /** Makes the panel answer getSession with `text`, sent as it is. */
  function answerWith(text: string): void {
    assert.ok(Buffer.byteLength(text) <= 4 * MiB, `${Buffer.byteLength(text)} bytes is over the app's cap`);
    panel.setFault('getSession', { kind: 'status', status: 200, body: text, contentType: 'application/json' });
  }

  const deepMessage = new RegExp(
    `nested more than ${MAX_ANSWER_DEPTH.toLocaleString('en-US')} levels deep.*no real .* is.*Check that the address`,
  );

  const hostile: [string, () => string][] = [
    ['arrays, 2,097,152 levels', () => nestedToSize('[', ']', 4 * MiB)],
    ['objects, as deep as 4 MiB allows', () => nestedToSize('{"a":', '}', 4 * MiB, '0')],
    ['arrays and objects by turns', () => nestedToSize('[{"a":', '}]', 4 * MiB, '0')],
    ['closers and escaped quotes hidden in strings', () => nestedToSize('["]}\\"]",', ']', 4 * MiB, '0')],
    ['cut off: openers only', () => '['.repeat(4 * MiB)],
  ];
  for (const [name, make] of hostile) {
    test(`a 4 MiB answer nested far too deep is refused with a clear message: ${name}`, async () => {
      answerWith(make());
      const error = await rejectsWith(core.getSession(panelId), 'BAD_RESPONSE', deepMessage);
      assert.match(error.message, /while reading the session/);
      const [record] = await core.listPanels();
      assert.equal(record?.signedIn, true, 'a refused answer does not sign the panel out');
    });
  }

  test('an answer exactly as deep as the limit is read, shown and still hides the token', async () => {
    for (const [open, close] of [
      ['[', ']'],
      ['{"next":', '}'],
    ] as const) {
      answerWith(`${open.repeat(MAX_ANSWER_DEPTH - 1)}{"bottom":${JSON.stringify(`echo ${token}`)}}${close.repeat(MAX_ANSWER_DEPTH - 1)}`);
      const { session } = await core.getSession(panelId);
      let node = session;
      for (let level = 1; level < MAX_ANSWER_DEPTH; level++)
        node = open === '[' ? (node as unknown[])[0] : (node as { next: unknown }).next;
      assert.deepEqual(node, { bottom: HIDDEN_SECRET });
      // What Electron's IPC does with it next (V8's serializer, which recurses): it must fit.
      assert.doesNotThrow(() => serialize({ ok: true, value: { panelId, checkedAt: '', session } }));
    }
  });

  test('one level deeper is refused', async () => {
    answerWith(nested('[', ']', MAX_ANSWER_DEPTH + 1));
    await rejectsWith(core.getSession(panelId), 'BAD_RESPONSE', deepMessage);
  });

  test('a 4 MiB answer of hundreds of thousands of tiny values is refused as too large', async () => {
    const tiny = `[${Array(Math.floor((4 * MiB) / 8))
      .fill('{"a":1}')
      .join(',')}]`;
    answerWith(tiny.slice(0, 4 * MiB - 2).replace(/,[^,]*$/, ']'));
    await rejectsWith(
      core.getSession(panelId),
      'RESPONSE_TOO_LARGE',
      new RegExp(`holds more than ${MAX_ANSWER_VALUES.toLocaleString('en-US')} values.*no real .* does.*Check that the address`),
    );
  });

  test('an answer with exactly as many values as the limit is read, and so is one 4 MiB string', async () => {
    const entries = Array.from({ length: MAX_ANSWER_VALUES - 1 }, (_, index) => `"key-${index}":${index}`);
    answerWith(`{${entries.join(',')}}`);
    const { session } = await core.getSession(panelId);
    assert.equal(Object.keys(session as object).length, MAX_ANSWER_VALUES - 1);

    answerWith(JSON.stringify({ blob: 'x'.repeat(4 * MiB - 20) }));
    const long = await core.getSession(panelId);
    assert.equal((long.session as { blob: string }).blob.length, 4 * MiB - 20);
  });
});
