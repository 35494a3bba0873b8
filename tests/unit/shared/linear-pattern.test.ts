import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { compilePattern } from '../../../shared/linear-pattern.ts';

/**
 * A pattern of the subset, built from pieces: what JSON Schema patterns of catalogues look like, and
 * worse. The check is against RegExp, which backtracks: nested quantified groups on a longer text
 * made RegExp, not the code under test, run for minutes in a suite run (groups three deep, 12
 * characters; 60,000 samples of the bounds here took 0.9 s at worst). Groups nest two deep at most
 * and texts are 8 characters; the linear-time test below covers deep nests on long texts.
 */
const atom = fc.oneof(
  fc.constantFrom('a', 'b', '-', '_', '.', '\\d', '\\w', '\\s', '\\.', '[a-c]', '[^a]', '[0-9a-z-]', '[\\d_]', '\\u0061', '\\x62'),
);
const quantifier = fc.constantFrom('', '', '*', '+', '?', '{2}', '{1,3}', '{0,}', '*?', '+?');
const pattern: fc.Arbitrary<string> = fc
  .letrec<{ expr: string; seq: string; part: string }>((tie) => ({
    part: fc.oneof(
      { maxDepth: 2, depthIdentifier: 'group' },
      { weight: 4, arbitrary: fc.tuple(atom, quantifier).map(([a, q]) => `${a}${q}`) },
      { weight: 1, arbitrary: fc.tuple(tie('expr'), quantifier, fc.constantFrom('(', '(?:')).map(([e, q, open]) => `${open}${e})${q}`) },
    ),
    seq: fc.array(tie('part'), { maxLength: 4 }).map((parts) => parts.join('')),
    expr: fc.array(tie('seq'), { minLength: 1, maxLength: 3 }).map((options) => options.join('|')),
  }))
  .expr.map((body) => body);
const anchored = fc.tuple(fc.boolean(), pattern, fc.boolean()).map(([start, body, end]) => `${start ? '^' : ''}${body}${end ? '$' : ''}`);
const text = fc.string({ unit: fc.constantFrom('a', 'b', 'c', '-', '_', '.', '1', '9', ' ', 'Z', 'é'), maxLength: 8 });

test('whatever the pattern of the subset and the text, it matches exactly when RegExp (u) does', () => {
  fc.assert(
    fc.property(anchored, text, (source, sample) => {
      const compiled = compilePattern(source);
      assert.ok(compiled.ok, `${source}: ${compiled.ok ? '' : compiled.why}`);
      assert.equal(compiled.test(sample), new RegExp(source, 'u').test(sample), `${source} on ${JSON.stringify(sample)}`);
    }),
    { numRuns: 3000 },
  );
});

test('a pattern that makes RegExp backtrack for ever is matched in linear time: work done grows with the text, not doubling', () => {
  const compiled = compilePattern('^([a-z0-9]|[a-z])*$');
  assert.ok(compiled.ok);
  // RegExp takes seconds at 28 characters and doubles with each more; this walks 100,000 in one pass.
  assert.equal(compiled.test(`${'a'.repeat(100_000)}!`), false);
  assert.equal(compiled.test('a'.repeat(100_000)), true);
  const nested = compilePattern('^(a+)+$');
  assert.ok(nested.ok);
  assert.equal(nested.test(`${'a'.repeat(50_000)}b`), false);
});

test('outside the subset: said, never run', () => {
  for (const [source, why] of [
    ['(a)\\1', /back-reference/],
    ['(?=a)b', /look-ahead/],
    ['(?<!a)b', /look-ahead or look-behind/],
    ['\\bword', /word boundary/],
    ['\\p{L}+', /Unicode property/],
    ['a{1,', /not a quantifier/],
    [`a{1,${9000}}`, /states/],
    ['(a', /unclosed group/],
  ] as const) {
    const compiled = compilePattern(source);
    assert.equal(compiled.ok, false, source);
    assert.match(compiled.ok ? '' : compiled.why, why, source);
  }
});
