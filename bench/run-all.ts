/**
 * `npm run bench`: every bench, in rounds (BENCH_ROUNDS, default 3), each in a process of its own
 * as `npm run bench:<name>` runs it, its output shown as it comes. At the end: every goal with its
 * figure in each round and in how many rounds it held, and the machine's load over each round (a
 * goal counts as met when it holds in all rounds at a load under 2: docs/testing.md, "Benches").
 *
 *   npm run build && node --experimental-strip-types bench/run-all.ts [name ...]
 *
 * Names pick benches (`panel-list fleet`); none: all of them. It asserts nothing: it measures.
 */
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { type GoalFigure, goalRounds, readGoals } from './goals.ts';
import { printTable } from './figures.ts';

/** Every bench, in the order they run: the cheapest first, so a slow one never hides the others' figures. */
const BENCHES: readonly { name: string; env?: Record<string, string> }[] = [
  { name: 'session-render' },
  { name: 'hostile-answers' },
  { name: 'fleet' },
  { name: 'fleet-login' },
  { name: 'fleet-state' },
  { name: 'panel-list' },
  { name: 'panel-list', env: { BENCH_PANEL_LIST_LAYOUT: 'table' } },
  { name: 'fleet-search' },
  { name: 'import' },
  { name: 'storage' },
  { name: 'services' },
  { name: 'services-tab' },
  { name: 'build-log' },
  { name: 'service-actions-fleet' },
  { name: 'fleet-services-view' },
  { name: 'fleet-views' },
  { name: 'operation-console' },
  { name: 'console-answer' },
  { name: 'backups' },
  { name: 'certificates' },
  { name: 'upgrades' },
];

const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
const picked = process.argv.slice(2);
const benches = picked.length === 0 ? BENCHES : BENCHES.filter(({ name }) => picked.includes(name));
if (benches.length === 0) {
  console.error(`No bench is called ${picked.join(', ')}: the benches are ${[...new Set(BENCHES.map(({ name }) => name))].join(', ')}.`);
  process.exit(2);
}

/** Runs one bench: its output shown as it comes, and kept to read its goals from. */
function runBench(name: string, env: Record<string, string> = {}): Promise<{ output: string; code: number | null }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--experimental-strip-types', join(import.meta.dirname, `${name}.ts`)], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      output += chunk;
      process.stdout.write(chunk);
    });
    child.on('close', (code) => resolve({ output, code }));
  });
}

const rounds: GoalFigure[][] = [];
const loads: { from: number; to: number; highest: number }[] = [];
const failed: string[] = [];
for (let round = 1; round <= ROUNDS; round++) {
  const goals: GoalFigure[] = [];
  const from = loadavg()[0] ?? NaN;
  let highest = from;
  for (const { name, env } of benches) {
    const label = env
      ? `${name} (${Object.entries(env)
          .map(([key, value]) => `${key}=${value}`)
          .join(' ')})`
      : name;
    console.log(`\n=== round ${round} of ${ROUNDS}: ${label} ===\n`);
    const { output, code } = await runBench(name, env);
    if (code !== 0) failed.push(`round ${round}: ${label} ended with code ${code}`);
    goals.push(...readGoals(output));
    highest = Math.max(highest, loadavg()[0] ?? NaN);
  }
  rounds.push(goals);
  loads.push({ from, to: loadavg()[0] ?? NaN, highest });
}

const rows = goalRounds(rounds);
console.log(`\n=== Every goal, ${ROUNDS} round${ROUNDS === 1 ? '' : 's'} ===\n`);
printTable([
  ['bench', 'goal', 'limit', ...rounds.map((_, index) => `round ${index + 1}`), 'met'],
  ...rows.map((row) => [
    row.bench,
    row.goal,
    row.limit,
    ...row.figures.map((figure, index) => (figure === null ? '-' : `${figure}${row.metIn[index] ? '' : ' (NO)'}`)),
    `${row.met}/${ROUNDS}`,
  ]),
]);
const held = rows.filter((row) => row.met === ROUNDS).length;
console.log(`\n${held} of ${rows.length} goals held in every round.`);
console.log(
  `Load average (1 min) per round, start → end (highest seen between benches): ${loads
    .map(({ from, to, highest }, index) => `round ${index + 1} ${from.toFixed(2)} → ${to.toFixed(2)} (${highest.toFixed(2)})`)
    .join('; ')}. A goal counts as met only at a load under 2.`,
);
if (failed.length > 0) console.log(`\nBenches that did not end well:\n${failed.join('\n')}`);
