/**
 * The search of the panel list and the command palette (renderer/panel-list/panel-list-rows.ts) over 10,000
 * panels, against a baseline measured in the same run:
 *
 *   node --experimental-strip-types bench/fleet-search.ts                 (npm run bench:search)
 *
 * For each query, the time panelListRows takes to answer it over the whole fleet, as the list and the
 * palette call it: "cold" with a fresh cache (the first search of a window builds each panel's
 * search text) and "warm" (every later keystroke). The baseline is the floor of any search: the
 * same 10,000 panels' texts, built beforehand, each scanned once with String.includes per word,
 * without ranking. The ratio (search / floor) is the figure to compare between versions; times
 * vary with the machine, ratios much less.
 *
 * The fleet is the panel list bench's ("Client 00042 prod", one address each, 12 of every 20
 * signed in), with a colour on every third panel and a version on each. Medians of BENCH_RUNS
 * runs (default 15) after a warm-up. It asserts nothing.
 */
import { performance } from 'node:perf_hooks';
import { panelListRows, type SearchCache } from '../renderer/panel-list/panel-list-rows.ts';
import type { Panel } from '../shared/types.ts';
import { samplePanel } from '../tests/support/panel-fixture.ts';
import { median, ms, printTable, spread } from './figures.ts';

const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 15));
const FLEET = 10_000;
/**
 * A first keystroke ("p" keeps the prod third; "7" was in a third of the names as a substring and
 * starts none of their words), a state word, a colour, a whole name as the palette gets it, and
 * words that every panel matches (every row ranked).
 */
const QUERIES = ['p', '7', 'expired', 'red', 'client 04242 prod', 'client 0 2'];
const COLOURS = ['red', 'blue', null, null, 'green', null] as const;

function buildFleet(): Panel[] {
  const stages = ['prod', 'staging', 'dev'];
  const panels: Panel[] = [];
  const now = Date.now();
  for (let position = 0; position < FLEET; position++) {
    // Not in name order: a stride prime to the count visits every number once.
    const index = (position * 7919) % FLEET;
    const number = String(index).padStart(5, '0');
    const stage = stages[index % stages.length]!;
    const address = `client-${number}.${stage}.example.net`;
    const slot = index % 20;
    const signedIn = slot < 15;
    panels.push(
      samplePanel(0, {
        id: `00000000-0000-4000-8000-${index.toString(16).padStart(12, '0')}`,
        name: `Client ${number} ${stage}`,
        address,
        baseUrl: `https://${address}/api`,
        signedIn,
        sessionExpiresAt: signedIn ? new Date(now + 3_600_000).toISOString() : null,
        lastCheck:
          slot >= 12 && slot < 15
            ? { at: new Date(now).toISOString(), ok: false, error: { code: 'TIMEOUT', message: 'The panel did not answer.' } }
            : null,
        signedOutReason: slot >= 15 && slot < 18 ? { code: 'UNAUTHORIZED', message: 'The panel ended the session.' } : null,
        colour: COLOURS[index % COLOURS.length]!,
        group: `Client ${number.slice(0, 3)}`,
        tags: index % 4 === 0 ? ['eu', 'billing'] : [],
        panelVersion: `2.${25 + (index % 10)}.${index % 7}`,
      }),
    );
  }
  return panels;
}

/** The floor: each panel's text built beforehand, scanned once with includes per word. */
function floorSearch(texts: readonly string[], query: string): number {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  let found = 0;
  for (const text of texts) if (words.every((word) => text.includes(word))) found++;
  return found;
}

function time(run: () => unknown): number {
  const start = performance.now();
  run();
  return performance.now() - start;
}

const panels = buildFleet();
const texts = panels.map((panel) =>
  `${panel.name} ${panel.address} ${panel.group ?? ''} ${panel.tags.join(' ')} ${panel.colour ?? ''} ${panel.panelVersion ?? ''}`.toLowerCase(),
);
const results: string[][] = [['query', 'found', 'floor', 'search, warm', 'ratio', 'search, cold', 'ratio', 'spread warm']];
for (const query of QUERIES) {
  const floor: number[] = [];
  const warm: number[] = [];
  const cold: number[] = [];
  let found = 0;
  const warmCache: SearchCache = new WeakMap();
  panelListRows(panels, { query, attentionOnly: false }, warmCache);
  for (let run = 0; run <= RUNS; run++) {
    // Interleaved, so a busy moment on a shared machine falls on all three alike; run 0 warms up.
    const floorMs = time(() => floorSearch(texts, query));
    const warmMs = time(() => (found = panelListRows(panels, { query, attentionOnly: false }, warmCache).rows.length));
    const coldMs = time(() => panelListRows(panels, { query, attentionOnly: false }, new WeakMap()));
    if (run === 0) continue;
    floor.push(floorMs);
    warm.push(warmMs);
    cold.push(coldMs);
  }
  const base = median(floor);
  results.push([
    `"${query}"`,
    String(found),
    ms(base, 2),
    ms(median(warm), 2),
    `${(median(warm) / base).toFixed(1)}x`,
    ms(median(cold), 2),
    `${(median(cold) / base).toFixed(1)}x`,
    spread(warm, 1),
  ]);
}
console.log(`Search over ${FLEET.toLocaleString('en-US')} panels, median of ${RUNS} runs; the floor is one includes scan per panel.\n`);
printTable(results);
