/**
 * How long one panel answer holds main's event loop, for hostile and for legal-but-heavy answers,
 * against a small normal session read in the same run:
 *
 *   node --experimental-strip-types bench/hostile-answers.ts [--guarded-only]
 *
 * Each getSession goes through a real core to the reference panel on loopback (served
 * from a worker thread, so that serving 4 MiB does not count), and ends with V8's serializer, which
 * is what Electron's IPC runs on main to send the result to the window. A 1 ms timer samples the
 * event loop meanwhile; the longest gap between its ticks is how long main could not answer.
 * "before" sends the same answers down the old path: JSON.parse, hideSecrets and the serializer
 * with no look at the text first. Garbage is collected before each run, so that one answer's
 * leftovers (millions of objects, before the fix) do not land in the next one's figures. Other
 * processes busy on the machine show up as blocks too: the median column is the steadier one.
 * Figures vary with the machine: compare the ratios.
 */
import { deserialize, serialize, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Worker } from 'node:worker_threads';
import { PanelError } from '../shared/contract/errors.ts';
import { createCore } from '../electron/core/index.ts';
import { sendRequest } from '../electron/core/net/http-client.ts';
import { checkJsonShape, PANEL_ANSWER_LIMITS } from '../electron/core/common/json-shape.ts';
import { failUnlessSuccess } from '../electron/core/easypanel/panel-responses.ts';
import { hideSecrets } from '../electron/core/secrets/session-redaction.ts';
import { tempDir, testEncryption } from '../tests/support/helpers.ts';
import { DEMO_USER, type Fault } from '../tests/support/reference-panel/server.ts';
import type { PanelWorkerReply, PanelWorkerRequest } from './hostile-panel-worker.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const GUARDED_ONLY = process.argv.includes('--guarded-only');
const MiB = 1024 * 1024;
const CAP = 4 * MiB;
// `gc` without a command-line flag, so that `npm run bench:main` stays a plain node call.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/** `open` `levels` times around `middle`, then `close` as often; as many levels as fit in `bytes`. */
function nested(open: string, close: string, bytes: number, middle = '0'): string {
  const levels = Math.floor((bytes - middle.length) / (open.length + close.length));
  return open.repeat(levels) + middle + close.repeat(levels);
}

/** A JSON array of `item(i)` as long as fits in `bytes`. */
function listToSize(item: (index: number) => string, bytes: number, open = '[', close = ']'): string {
  const parts: string[] = [];
  for (let index = 0, length = 2; ; index++) {
    const part = item(index);
    length += part.length + 1;
    if (length > bytes) break;
    parts.push(part);
  }
  return open + parts.join(',') + close;
}

const chain = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
const keys = (count: number) => `{${Array.from({ length: count }, (_, index) => `"key-${index}":${index}`).join(',')}}`;

interface Case {
  name: string;
  /** What getSession answers; `undefined` is the reference panel's own small session. */
  text?: () => string;
  status?: number;
}

const cases: Case[] = [
  { name: 'small session (baseline)' },
  { name: 'depth 1,000 (browser test)', text: () => `${'{"next":'.repeat(1000)}{"bottom":"x"}${'}'.repeat(1000)}` },
  { name: '10,000 keys (browser test)', text: () => keys(10_000) },
  { name: 'hostile: 4 MiB of [[[…]]], 2,097,152 deep', text: () => nested('[', ']', CAP, '') },
  { name: 'hostile: 4 MiB of {"a":{…}}, 699,050 deep', text: () => nested('{"a":', '}', CAP) },
  { name: 'hostile: 4 MiB deep, closers in strings', text: () => nested('["]}\\"]",', ']', CAP) },
  { name: 'limit: one chain 2,000 deep', text: () => chain(PANEL_ANSWER_LIMITS.maxDepth) },
  {
    name: 'limits: 10 chains 2,000 deep',
    text: () =>
      `[${Array(10)
        .fill(chain(PANEL_ANSWER_LIMITS.maxDepth - 1))
        .join(',')}]`,
  },
  { name: 'limit: one object of 19,999 keys', text: () => keys(PANEL_ANSWER_LIMITS.maxValues - 1) },
  { name: 'over: 4 MiB of {"a":1}, 524k objects', text: () => listToSize((index) => `{"a":${index % 10}}`, CAP) },
  { name: 'over: 4 MiB object of 480k keys', text: () => listToSize((index) => `"${index.toString(36)}":0`, CAP, '{', '}') },
  { name: 'over: 4 MiB of {}, 1.4M objects', text: () => listToSize(() => '{}', CAP) },
  {
    name: 'limit: 19,999 keys, spaces to 4 MiB',
    text: () => keys(PANEL_ANSWER_LIMITS.maxValues - 1).replaceAll(',', `,${' '.repeat(190)}`),
  },
  { name: 'one 4 MiB string', text: () => JSON.stringify({ blob: 'x'.repeat(CAP - 20) }) },
  // Error bodies go to serverMessage's own JSON.parse, which the scan does not guard (yet).
  { name: 'HTTP 400, 4 MiB error body of [[[…]]]', text: () => nested('[', ']', CAP, ''), status: 400 },
];

/** The reference panel on its worker, one request at a time. */
async function startPanelWorker(): Promise<{ ask(request: Omit<PanelWorkerRequest, 'id'>): Promise<PanelWorkerReply>; url: string }> {
  const worker = new Worker(new URL('./hostile-panel-worker.ts', import.meta.url));
  const replies = new Map<number, (reply: PanelWorkerReply) => void>();
  worker.on('message', (reply: PanelWorkerReply) => replies.get(reply.id)?.(reply));
  const started = await new Promise<PanelWorkerReply>((resolve) => replies.set(0, resolve));
  let next = 1;
  const ask = (request: Omit<PanelWorkerRequest, 'id'>) =>
    new Promise<PanelWorkerReply>((resolve) => {
      const id = next++;
      replies.set(id, resolve);
      worker.postMessage({ ...request, id });
    });
  return { ask, url: started.url };
}

/** Runs `work` with a 1 ms timer going; the longest gap between its ticks, and how `work` ended. */
async function longestBlock(work: () => Promise<unknown>): Promise<{ ms: number; outcome: string }> {
  const pause = () => new Promise((resolve) => setTimeout(resolve, 10));
  // Before the timer starts: a full collection after a big answer is itself a long block.
  collectGarbage();
  await pause();
  let last = performance.now();
  let longest = 0;
  const probe = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 1);
  await pause();
  let outcome = 'shown';
  try {
    await work();
  } catch (error) {
    outcome = error instanceof PanelError ? `refused: ${error.code}` : `failed: ${error instanceof Error ? error.message : String(error)}`;
  }
  await pause();
  clearInterval(probe);
  return { ms: longest, outcome };
}

type Stage = 'scan' | 'parse' | 'hide' | 'serialize' | 'deserialize';
type StageCosts = Record<Stage, number | 'throws'>;

/** Each stage's median over RUNS runs, which keeps one run's garbage collection out of the figures. */
function medianStageCosts(text: string, token: string): StageCosts {
  const runs = Array.from({ length: RUNS }, () => stageCosts(text, token));
  const stages: Stage[] = ['scan', 'parse', 'hide', 'serialize', 'deserialize'];
  return Object.fromEntries(
    stages.map((stage) => {
      const costs = runs.map((run) => run[stage]);
      if (costs.includes('throws')) return [stage, 'throws'];
      const sorted = (costs as number[]).sort((a, b) => a - b);
      return [stage, sorted[Math.floor(sorted.length / 2)] ?? NaN];
    }),
  ) as StageCosts;
}

/** Synchronous stage costs of the old path, in ms; "throws" where V8's serializer gives up. */
function stageCosts(text: string, token: string): StageCosts {
  const time = <T>(step: () => T): [number, T] => {
    const start = performance.now();
    const result = step();
    return [performance.now() - start, result];
  };
  collectGarbage();
  const [scan] = time(() => checkJsonShape(text, PANEL_ANSWER_LIMITS));
  const [parse, value] = time(() => JSON.parse(text) as unknown);
  const [hide, hidden] = time(() => hideSecrets(value, [token]));
  try {
    const [serializeMs, bytes] = time(() => serialize({ ok: true, value: { session: hidden } }));
    try {
      return { scan, parse, hide, serialize: serializeMs, deserialize: time(() => deserialize(bytes))[0] };
    } catch {
      return { scan, parse, hide, serialize: serializeMs, deserialize: 'throws' };
    }
  } catch {
    return { scan, parse, hide, serialize: 'throws', deserialize: 'throws' };
  }
}

function printTable(rows: string[][]): void {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  for (const [index, row] of rows.entries()) {
    console.log(row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('  '));
    if (index === 0) console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  }
}

async function main(): Promise<void> {
  const panel = await startPanelWorker();
  const data = await tempDir('paneldeck-bench-');
  try {
    const core = createCore({ dataDir: data.path, encryption: testEncryption() });
    const { id } = await core.addPanel({ address: panel.url, name: 'Bench' });
    await core.logIn(id, { email: DEMO_USER.email, password: DEMO_USER.password });
    const token = (await panel.ask({ tokens: true })).tokens[0] ?? '';
    const [record] = await core.listPanels();
    const sessionUrl = `${record?.baseUrl ?? ''}/getSession`;

    const guarded = async () => serialize({ ok: true, value: await core.getSession(id) });
    const unguarded = async () => {
      const response = await sendRequest((url, init) => fetch(url, init), {
        method: 'GET',
        url: sessionUrl,
        headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
        secrets: [token],
        timeoutMs: 15_000,
        maxBytes: CAP,
      });
      failUnlessSuccess(response, 'reading the session', [token]);
      return serialize({ ok: true, value: { panelId: id, checkedAt: '', session: hideSecrets(JSON.parse(response.text), [token]) } });
    };
    const worst = async (work: () => Promise<unknown>) => {
      await longestBlock(work); // warm-up
      const runs: { ms: number; outcome: string }[] = [];
      for (let run = 0; run < RUNS; run++) runs.push(await longestBlock(work));
      const sorted = runs.map((run) => run.ms).sort((a, b) => a - b);
      return { ms: sorted.at(-1) ?? NaN, median: sorted[Math.floor(sorted.length / 2)] ?? NaN, outcome: runs[0]?.outcome ?? '' };
    };

    const blocks: { name: string; before: number | null; after: number; median: number; outcome: string }[] = [];
    const stages: { name: string; costs: StageCosts | null }[] = [];
    for (const shape of cases) {
      const text = shape.text?.();
      const fault: Fault | null =
        text === undefined ? null : { kind: 'status', status: shape.status ?? 200, body: text, contentType: 'application/json' };
      await panel.ask({ fault });
      const after = await worst(guarded);
      const before = GUARDED_ONLY ? null : (await worst(unguarded)).ms;
      blocks.push({ name: shape.name, before, after: after.ms, median: after.median, outcome: after.outcome });
      stages.push({ name: shape.name, costs: text === undefined || shape.status ? null : medianStageCosts(text, token) });
      process.stderr.write('.');
    }
    process.stderr.write('\n');

    // The baseline is a normal read's typical block (median); each answer's figure is its worst run.
    const baseline = blocks[0]?.median ?? NaN;
    const ratio = (ms: number) => `${(ms / baseline).toFixed(ms < baseline * 10 ? 1 : 0)}x`;
    console.log(`Longest event-loop block per getSession, worst of ${RUNS} runs, in ms and as a multiple of a small session's`);
    console.log(
      `read (median ${baseline.toFixed(1)} ms). Limits now: ${PANEL_ANSWER_LIMITS.maxDepth.toLocaleString('en-US')} levels, ${PANEL_ANSWER_LIMITS.maxValues.toLocaleString('en-US')} values.\n`,
    );
    printTable([
      ['answer', 'before ms', 'before x', 'after ms', 'after x', 'after median x', 'after: outcome'],
      ...blocks.map(({ name, before, after, median, outcome }) => [
        name,
        before === null ? '-' : before.toFixed(1),
        before === null ? '-' : ratio(before),
        after.toFixed(1),
        ratio(after),
        ratio(median),
        outcome,
      ]),
    ]);

    const shown = (cost: number | 'throws') => (cost === 'throws' ? 'throws' : cost.toFixed(1));
    console.log(
      `\nWhat each stage of the old path costs on its own, in ms, median of ${RUNS} runs. "main" is what main paid before the fix`,
    );
    console.log('(parse + hide + serialize); "worker" is what main would still pay with parsing and hiding on a worker');
    console.log('(deserialize its result + serialize for IPC); the scan is what main pays now before refusing.\n');
    printTable([
      ['answer', 'scan', 'parse', 'hide', 'serialize', 'deserialize', 'main x', 'worker x'],
      ...stages.flatMap(({ name, costs }) => {
        if (!costs) return [];
        const sum = (parts: (number | 'throws')[]) => parts.reduce<number>((total, part) => total + (part === 'throws' ? 0 : part), 0);
        const main = sum([costs.parse, costs.hide, costs.serialize]);
        // Where V8's serializer gives up, the worker could not send its result at all.
        const worker = costs.serialize === 'throws' ? 'no result' : ratio(sum([costs.deserialize, costs.serialize]));
        return [
          [
            name,
            shown(costs.scan),
            shown(costs.parse),
            shown(costs.hide),
            shown(costs.serialize),
            shown(costs.deserialize),
            ratio(main),
            worker,
          ],
        ];
      }),
    ]);
    const longestAfter = Math.max(...blocks.map((block) => block.after));
    console.log(`\nLongest block after the fix, over every answer: ${longestAfter.toFixed(1)} ms, ${ratio(longestAfter)} the baseline.`);
  } finally {
    await panel.ask({ close: true });
    await data.cleanup();
  }
}

await main();
