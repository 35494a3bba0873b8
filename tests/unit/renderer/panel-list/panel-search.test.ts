import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import {
  byRank,
  factTest,
  matchesWords,
  matchRank,
  NO_MATCH,
  RANK,
  searchEntry,
  searchQuery,
} from '../../../../renderer/panel-list/panel-search.ts';

/** The matcher and ranker the list and the palette share (the list's own cases are in panel-list-rows.test.ts). */

const rank = (name: string, query: string, fields: string[] = [], whole = '') =>
  matchRank(searchEntry(name, fields.join('\n'), whole), searchQuery(query));

test('a word matches the start of a word: after punctuation, or where letters turn to digits; whole words only for states and colours', () => {
  assert.equal(rank('abstergo-prod-eu-2', 'prod eu'), RANK.wordsInName);
  assert.equal(rank('web07', '07'), RANK.wordsInName);
  assert.equal(rank('web07', 'eb'), NO_MATCH);
  assert.equal(rank('x', '.example', ['p3.example.com']), RANK.elsewhere, 'a word starting with punctuation may start anywhere');
  assert.equal(rank('x', 'red', [], 'signed out red'), RANK.elsewhere);
  assert.equal(rank('x', 're', [], 'signed out red'), NO_MATCH, 'a colour is a whole word');
  assert.equal(rank('x', 'log', [], 'signed out logged'), NO_MATCH, 'a state word is a whole word');
  assert.equal(rank('Zürich prod', 'zurich'), RANK.namePrefix, 'accents folded');
});

test('ranks: the exact name (punctuation aside), a name starting with the query, every word in the name, the rest', () => {
  assert.equal(rank('Abstergo-Prod EU 2', 'abstergo prod eu 2'), RANK.exactName);
  assert.equal(rank('abstergo-prod-eu-21', 'abstergo prod eu 2'), RANK.namePrefix);
  assert.equal(rank('eu 2 abstergo prod', 'abstergo prod eu 2'), RANK.wordsInName);
  assert.equal(rank('abstergo-prod-eu-1', 'abstergo prod eu 2', ['127.0.0.2']), RANK.elsewhere, 'the address digit ranks last');
  assert.equal(rank('anything', ''), RANK.exactName, 'no words: everything matches');
  assert.equal(rank('anything', '-'), NO_MATCH, 'punctuation alone is a word too');
});

test('the palette matches its commands the same way', () => {
  assert.ok(matchesWords('Log out', searchQuery('log').terms));
  assert.ok(matchesWords('Copy as curl', searchQuery('cu co').terms));
  assert.ok(!matchesWords('Refresh', searchQuery('fresh').terms));
});

test('byRank: best rank first, the order given kept within a rank', () => {
  fc.assert(
    fc.property(fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 50 }), (ranks) => {
      const items = ranks.map((_, index) => index);
      const ordered = byRank(items, ranks);
      assert.equal(ordered.length, items.length);
      for (let index = 1; index < ordered.length; index++) {
        const [before, after] = [ordered[index - 1]!, ordered[index]!];
        assert.ok(ranks[before]! < ranks[after]! || (ranks[before] === ranks[after] && before < after));
      }
    }),
  );
});

test('fact terms: down, disk>90 (and <, >=, <=, =, mem, cpu), version:2.30 (every 2.30.x, never 2.300), update:available; the rest stays words', () => {
  const facts = { servicesDown: 2, diskPercent: 91, memoryPercent: 40, cpuPercent: 12.5, version: '2.30.1', updateAvailable: true };
  const none = { servicesDown: null, diskPercent: null, memoryPercent: null, cpuPercent: null, version: null, updateAvailable: null };
  assert.equal(searchQuery('update:available').facts.length, 1);
  assert.deepEqual(searchQuery('update:available').terms, []);
  assert.ok(searchQuery('update:available').facts.every((test) => test(facts)));
  assert.ok(!searchQuery('update:available').facts.every((test) => test(none)), 'not said: not matched');
  assert.ok(!searchQuery('update:available').facts.every((test) => test({ ...facts, updateAvailable: false })));
  const holds = (query: string, of: typeof facts | typeof none = facts) => searchQuery(query).facts.every((test) => test(of));
  assert.deepEqual(searchQuery('down disk>90 acme').terms, ['acme']);
  assert.equal(searchQuery('down disk>90 acme').facts.length, 2);
  assert.ok(holds('down'));
  assert.ok(!holds('down', { ...facts, servicesDown: 0 }));
  assert.ok(holds('disk>90') && !holds('disk>91') && holds('disk>=91') && holds('disk=91') && holds('disk<=91') && !holds('disk<91'));
  assert.ok(holds('mem<50') && holds('memory<50%') && holds('cpu>12'));
  assert.ok(holds('version:2.30') && holds('version:2.30.1') && holds('version:2') && !holds('version:2.3'));
  assert.ok(!holds('version:2.30', { ...facts, version: '2.300.0' }));
  assert.ok(!holds('down', none) && !holds('disk>0', none) && !holds('version:2', none), 'unknown never matches');
  assert.deepEqual(factTest('downtown'), null);
  assert.deepEqual(factTest('disk>'), null);
  assert.deepEqual(searchQuery('Version:2.30').facts.length, 1);
});
