import { existsSync } from 'node:fs';
import { findElectronBinary } from '../scripts/electron-binary.ts';
import { elapsed, runSteps, seconds, type Step, type StepResult } from './support/steps.ts';

/**
 * `npm test`: type check, lint, unit tests, the crash test, build, the Electronegativity audit of the
 * build, browser end-to-end tests, then the Electron end-to-end suite where an Electron binary
 * exists (a loud SKIPPED line where it does not).
 *
 * Two chains run side by side: type check, lint, unit and integration tests, then the
 * Electronegativity audit of the build; beside them the build, the crash test, then the browser
 * tests (the longest step). Much of the tests' time is spent waiting (servers, timers, child
 * processes, the browser), so on two cores the two chains together take little more than the
 * longer one. `npm test -- --serial` runs one step at a time, its output shown as it comes.
 *
 * Ends with each step's time, then one line adding the suites up; the exit code is non-zero when
 * anything failed.
 */
const MINUTE = 60_000;
const serial = process.argv.includes('--serial');

const npmRun = (script: string) => ({ command: 'npm', args: ['run', '--silent', script] });
const BUILD = 'Build (vite: renderer, main, preload)';
const typeCheck: Step = { name: 'Type check', ...npmRun('typecheck'), counts: false, timeoutMs: 10 * MINUTE };
// A gate like the type check: any error or warning fails npm test.
const lint: Step = { name: 'Lint (Biome)', ...npmRun('lint'), counts: false, timeoutMs: 10 * MINUTE };
/**
 * The crash test kills a writer process at random moments a few milliseconds apart, and needs the
 * CPU in those moments to see enough writes: beside Chromium's busy threads it saw too few (17 log
 * outs in 110 kills, where alone it sees over 100 in 55). So it is a step of its own, run before
 * the browser tests, beside the other node:test files, which do not starve it.
 */
const CRASH_TEST = 'crash-during-save';
// npm passes the pattern on to node untouched; on Windows the shell would see it first.
const pattern = (glob: string) => (process.platform === 'win32' ? `"${glob}"` : glob);
const nodeTests = (glob: string) => ({ command: 'npm', args: ['run', '--silent', 'test:node', '--', pattern(glob)] });
const unitTests: Step = {
  name: 'Unit and integration tests (node:test)',
  ...nodeTests(`tests/**/!(${CRASH_TEST}).test.ts`),
  counts: true,
  needs: [typeCheck.name],
  timeoutMs: 30 * MINUTE,
};
const crashTest: Step = {
  name: `Crash test (node:test, tests/integration/${CRASH_TEST}.test.ts)`,
  ...nodeTests(`tests/integration/${CRASH_TEST}.test.ts`),
  counts: true,
  timeoutMs: 15 * MINUTE,
};
const build: Step = { name: BUILD, ...npmRun('build'), counts: false, timeoutMs: 10 * MINUTE };
// A gate, not a test suite: it fails npm test on a finding but adds nothing to the counts.
const electronegativity: Step = {
  name: 'Electronegativity (security audit of the built app)',
  ...npmRun('electronegativity'),
  counts: false,
  needs: [BUILD],
  timeoutMs: 10 * MINUTE,
};
const browserTests: Step = {
  name: 'Browser end-to-end tests (Playwright, Chromium)',
  command: 'npx',
  args: ['playwright', 'test'],
  counts: true,
  needs: [BUILD],
  timeoutMs: 30 * MINUTE,
};

// The browser tests are the longest step: their chain holds only the build and the crash test
// before them, and the other chain takes the rest, the audit of the build last.
const chains: Step[][] = serial
  ? [[typeCheck, lint, unitTests, crashTest, build, electronegativity, browserTests]]
  : [
      [typeCheck, lint, unitTests, electronegativity],
      [build, crashTest, browserTests],
    ];
/** Each step starts after the one before it in its chain. */
const steps = chains.flatMap((chain) => chain.map((step, index): Step => (index > 0 ? { ...step, after: chain[index - 1]!.name } : step)));
const chainText = (chain: Step[]) => chain.map((step) => step.name.split(' (')[0]).join(' -> ');
console.log(
  serial ? `One step at a time (--serial): ${chainText(chains[0]!)}` : `Two chains side by side: ${chains.map(chainText).join('  ||  ')}`,
);
const results = await runSteps(steps, { stream: serial });

const electronStep = 'Electron end-to-end tests (Playwright, real app)';
const skippedSuites: string[] = [];
const binary = findElectronBinary();
if ('missing' in binary) {
  console.log(`\n== ${electronStep}`);
  const line = `SKIPPED: Electron end-to-end suite NOT RUN (not counted as passed): ${binary.missing}.`;
  console.log(`\n${'!'.repeat(line.length)}\n${line}\n${'!'.repeat(line.length)}`);
  skippedSuites.push('Electron end-to-end');
} else if (results.every((result) => result.outcome === 'passed')) {
  const display = process.platform === 'linux' && !process.env.DISPLAY && existsSync('/usr/bin/xvfb-run');
  const playwright = ['playwright', 'test', '-c', 'tests/electron/playwright.config.ts'];
  const [command, args] = display ? ['xvfb-run', ['-a', 'npx', ...playwright]] : ['npx', playwright];
  results.push(...(await runSteps([{ name: electronStep, command, args, counts: true, timeoutMs: 30 * MINUTE }], { stream: true })));
}

console.log('\n== Times');
const width = Math.max(...results.map((result) => result.name.length));
for (const result of results) {
  const note = result.outcome === 'passed' ? '' : `  ${result.outcome.toUpperCase()}${result.note ? ` (${result.note})` : ''}`;
  console.log(`  ${result.name.padEnd(width)}  ${seconds(result.ms).padStart(8)}${note}`);
}
console.log(`  ${'Total (wall clock)'.padEnd(width)}  ${seconds(elapsed()).padStart(8)}`);

const failedSteps = results.filter((result: StepResult) => result.outcome !== 'passed');
if (failedSteps.length > 0) console.log(`\nFailed steps: ${failedSteps.map((result) => result.name).join('; ')}`);
const passed = results.reduce((sum, result) => sum + result.passed, 0);
const failed = results.reduce((sum, result) => sum + result.failed, 0);
const skipped = skippedSuites.length ? `, 1 suite skipped (${skippedSuites.join(', ')})` : '';
console.log(`\n${passed} passed, ${failed} failed${skipped}`);
process.exitCode = failedSteps.length > 0 || failed > 0 ? 1 : 0;
