import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { findElectronBinary } from './electron/electron-binary.ts';

/**
 * `npm test`: type check, lint, unit tests, build, the Electronegativity audit of the build, browser
 * end-to-end tests, then the Electron end-to-end suite where an Electron binary exists (a loud
 * SKIPPED line where it does not).
 * Ends with one line adding the suites up; the exit code is non-zero when anything failed.
 */
const totals = { passed: 0, failed: 0 };
const skippedSuites: string[] = [];

/** Runs a command with its output shown, and reads the `N passed, N failed` line it ends with. */
function run(command: string, args: string[], options: { counts: boolean }): Promise<number> {
  return new Promise((resolve) => {
    // npm and npx are .cmd files on Windows, which Node starts only through a shell.
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'], shell: process.platform === 'win32' });
    let tail = '';
    child.stdout.on('data', (chunk: Buffer) => {
      process.stdout.write(chunk);
      tail = (tail + chunk.toString('utf8')).slice(-4096);
    });
    child.on('close', (code) => {
      if (options.counts) {
        const summary = [...tail.matchAll(/^(\d+) passed, (\d+) failed/gm)].at(-1);
        const passed = Number(summary?.[1] ?? 0);
        let failed = Number(summary?.[2] ?? 0);
        // A runner that failed, or printed no count, must not look green in the total.
        if (!summary) console.log(`!! ${command} ${args.join(' ')} printed no "N passed, N failed" line`);
        if ((code !== 0 || !summary) && failed === 0) failed = 1;
        totals.passed += passed;
        totals.failed += failed;
      }
      resolve(code ?? 1);
    });
  });
}

function heading(text: string): void {
  console.log(`\n== ${text}`);
}

const npx = 'npx';
const steps: [string, () => Promise<number>][] = [
  ['Type check', () => run('npm', ['run', '--silent', 'typecheck'], { counts: false })],
  // A gate like the type check: any error or warning fails npm test.
  ['Lint (Biome)', () => run('npm', ['run', '--silent', 'lint'], { counts: false })],
  ['Unit and integration tests (node:test)', () => run('npm', ['run', '--silent', 'test:unit'], { counts: true })],
  ['Build (vite: renderer, main, preload)', () => run('npm', ['run', '--silent', 'build'], { counts: false })],
  // A gate, not a test suite: it fails npm test on a finding but adds nothing to the counts.
  ['Electronegativity (security audit of the built app)', () => run('npm', ['run', '--silent', 'electronegativity'], { counts: false })],
  ['Browser end-to-end tests (Playwright, Chromium)', () => run(npx, ['playwright', 'test'], { counts: true })],
];

let failedStep: string | null = null;
for (const [name, step] of steps) {
  heading(name);
  if ((await step()) !== 0) {
    failedStep = name;
    // Later steps need the earlier ones (the browser tests need the build).
    if (name.startsWith('Type') || name.startsWith('Build')) break;
  }
}

heading('Electron end-to-end tests (Playwright, real app)');
const binary = findElectronBinary();
if ('missing' in binary) {
  const line = `SKIPPED: Electron end-to-end suite NOT RUN (not counted as passed): ${binary.missing}.`;
  console.log(`\n${'!'.repeat(line.length)}\n${line}\n${'!'.repeat(line.length)}`);
  skippedSuites.push('Electron end-to-end');
} else if (failedStep === null) {
  const display = process.platform === 'linux' && !process.env.DISPLAY && existsSync('/usr/bin/xvfb-run');
  const [command, args] = display
    ? ['xvfb-run', ['-a', npx, 'playwright', 'test', '-c', 'tests/electron/playwright.config.ts']]
    : [npx, ['playwright', 'test', '-c', 'tests/electron/playwright.config.ts']];
  if ((await run(command, args as string[], { counts: true })) !== 0) failedStep = 'Electron end-to-end tests';
}

if (failedStep) console.log(`\nFailed step: ${failedStep}`);
const skipped = skippedSuites.length ? `, 1 suite skipped (${skippedSuites.join(', ')})` : '';
console.log(`\n${totals.passed} passed, ${totals.failed} failed${skipped}`);
process.exitCode = failedStep || totals.failed > 0 ? 1 : 0;
