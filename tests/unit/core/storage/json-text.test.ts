import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { compactListText, documentText } from '../../../../electron/core/storage/json-text.ts';
import { mapInSlices, SLICE_MS, TimeSlicer } from '../../../../electron/core/common/time-slices.ts';

/** The text built in slices is the text one JSON.stringify gives, so files read the same whoever wrote them. */

const jsonValue = fc.jsonValue({ maxDepth: 4 });
/** Documents as the stores write them, plus what JSON.stringify leaves out or turns to null. */
const document = fc.dictionary(
  fc.string(),
  fc.oneof(
    jsonValue,
    fc.array(fc.oneof(jsonValue, fc.constant(undefined))),
    fc.dictionary(fc.string(), fc.oneof(jsonValue, fc.constant(undefined))),
    fc.constant(undefined),
  ),
);

test('property: documentText is JSON.stringify(document, null, tab) and a newline, piece by piece', async () => {
  await fc.assert(
    fc.asyncProperty(document, async (value) => {
      assert.equal((await documentText(value)).join(''), `${JSON.stringify(value, null, '\t')}\n`);
    }),
    { numRuns: 500 },
  );
});

test('the documents the stores write: empty collections, an object whose values are all left out, the key __proto__', async () => {
  const cases: Record<string, unknown>[] = [
    {},
    { version: 3, panels: [] },
    { version: 1, tokens: {} },
    { version: 1, panels: { a: undefined } },
    JSON.parse('{"__proto__": {"x": 1}, "list": [{"__proto__": 2}]}'),
    { version: 3, panels: [{ id: 'a', tags: ['x', 'y'], trustedCertificate: { sha256: 'ab' } }, null, 'text\nwith newline'] },
  ];
  for (const value of cases) assert.equal((await documentText(value)).join(''), `${JSON.stringify(value, null, '\t')}\n`);
});

test('property: compactListText is JSON.stringify of the list', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(fc.oneof(jsonValue, fc.constant(undefined))), async (list) => {
      assert.equal((await compactListText(list))?.join(''), JSON.stringify(list));
    }),
  );
});

test('compactListText gives up once the text passes maxChars, or is foreseen to from its first 256 items', async () => {
  const items = Array.from({ length: 1000 }, (_, index) => ({ id: index, name: 'x'.repeat(20) }));
  const whole = JSON.stringify(items).length;
  assert.equal((await compactListText(items, whole))?.join(''), JSON.stringify(items));
  assert.equal(await compactListText(items, whole - 1), null);
  assert.equal(await compactListText(items, whole / 2), null);
  assert.equal(await compactListText(items.slice(0, 10), 50), null);
});

test('a large document is built in slices: timers run between them', async () => {
  const panels = Array.from({ length: 30_000 }, (_, index) => ({ id: `panel-${index}`, name: `Panel ${index}`, tags: ['a', 'b'] }));
  let ticks = 0;
  const timer = setInterval(() => ticks++, 1);
  try {
    const text = await documentText({ version: 3, panels });
    assert.equal(text.join('').length, `${JSON.stringify({ version: 3, panels }, null, '\t')}\n`.length);
  } finally {
    clearInterval(timer);
  }
  assert.ok(ticks > 0, 'no timer ran while thirty thousand panels were serialised');
});

test('a slicer is due once its slice has run SLICE_MS; mapInSlices keeps order', async () => {
  const slicer = new TimeSlicer(5);
  assert.equal(slicer.due, false);
  const start = performance.now();
  while (performance.now() - start < 6);
  assert.equal(slicer.due, true);
  await slicer.nextSlice();
  assert.equal(slicer.due, false);
  assert.ok(SLICE_MS <= 10, 'a slice longer than 10 ms would eat most of the 20 ms goal');
  assert.deepEqual(await mapInSlices([3, 1, 2], (value, index) => value * 10 + index), [30, 11, 22]);
});
