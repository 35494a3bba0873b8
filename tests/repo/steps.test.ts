import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { runSteps, type Step } from '../support/steps.ts';

/** The runner of `npm test` (tests/support/steps.ts), on small Node commands instead of the real steps. */

const node = (code: string) => ({ command: process.execPath, args: ['-e', code] });
const step = (name: string, code: string, more: Partial<Step> = {}): Step => ({
  name,
  ...node(code),
  counts: false,
  timeoutMs: 20_000,
  ...more,
});

async function run(steps: Step[], stream = false) {
  let output = '';
  const results = await runSteps(steps, { stream, print: (text) => (output += text) });
  return { results, output };
}

test('two chains run side by side; each step waits for the one it comes after, and prints its output whole', async () => {
  // Each line is printed 40 ms apart: two steps streaming at once would interleave them.
  const lines = (label: string) => `for (let i = 0; i < 5; i++) setTimeout(() => console.log('${label}', i), 40 * i)`;
  const { results, output } = await run([step('a1', lines('a1')), step('a2', lines('a2'), { after: 'a1' }), step('b1', lines('b1'))]);
  assert.deepEqual(
    results.map((result) => [result.name, result.outcome]),
    [
      ['a1', 'passed'],
      ['a2', 'passed'],
      ['b1', 'passed'],
    ],
  );
  // b1 ran beside a1: it started before a1 ended.
  assert.ok(output.indexOf('-> b1') < output.indexOf('<- a1'), output);
  for (const label of ['a1', 'a2', 'b1']) {
    const block = `== ${label}\n${[0, 1, 2, 3, 4].map((i) => `${label} ${i}\n`).join('')}`;
    assert.ok(output.includes(block), `${label} printed whole:\n${output}`);
    assert.equal(output.split(`${label} 0\n`).length, 2, `${label} printed once, not also as it came:\n${output}`);
  }
  assert.ok(output.indexOf('<- a1') < output.indexOf('-> a2'), 'a2 starts once a1 has ended');
});

test('a step whose needs failed is not run, and a failed or silent test suite never counts as green', async () => {
  const { results, output } = await run([
    step('gate', 'process.exit(3)'),
    step('suite', 'console.log("7 passed, 0 failed")', { counts: true, needs: ['gate'] }),
    step('counted', 'console.log("4 passed, 2 failed"); process.exit(1)', { counts: true }),
    step('silent', '', { counts: true }),
    step('green', 'console.log("5 passed, 0 failed")', { counts: true }),
  ]);
  const [gate, suite, counted, silent, green] = results;
  assert.equal(gate?.outcome, 'failed');
  assert.deepEqual([suite?.outcome, suite?.passed, suite?.failed], ['not run', 0, 1]);
  assert.match(output, /-- not run: gate did not pass/);
  assert.deepEqual([counted?.outcome, counted?.passed, counted?.failed], ['failed', 4, 2]);
  assert.deepEqual([silent?.outcome, silent?.failed], ['passed', 1]);
  assert.match(silent?.note ?? '', /printed no "N passed, N failed" line/);
  assert.deepEqual([green?.outcome, green?.passed, green?.failed], ['passed', 5, 0]);
});

test('a step may need one listed after it, in another chain', async () => {
  const { results, output } = await run([
    step('audit', 'console.log("audited")', { needs: ['build'] }),
    step('build', 'setTimeout(() => console.log("built"), 300)'),
  ]);
  assert.deepEqual(
    results.map((result) => result.outcome),
    ['passed', 'passed'],
  );
  assert.ok(output.indexOf('<- build') < output.indexOf('-> audit'), `the audit started once the build had ended:\n${output}`);
});

test('a step past its time is killed with the children it started, and fails', async () => {
  // The step starts a grandchild that would outlive it; both must be gone after the timeout.
  const code = `
    const { spawn } = require('node:child_process');
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    console.log('grandchild', child.pid);
    setInterval(() => {}, 1000);`;
  const { results, output } = await run([step('hung', code, { timeoutMs: 1500 })], true);
  assert.equal(results[0]?.outcome, 'timed out');
  assert.match(results[0]?.note ?? '', /killed after 1\.5 s/);
  const grandchild = Number(/grandchild (\d+)/.exec(output)?.[1]);
  assert.ok(grandchild > 0, output);
  await new Promise((resolve) => setTimeout(resolve, 200));
  assert.equal(isRunning(grandchild), false, 'the grandchild was killed with the step');
});

/** Whether a process runs: a killed one may stay a zombie where PID 1 reaps no orphans (as in containers). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  if (process.platform !== 'linux') return true;
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0] !== 'Z';
  } catch {
    return false;
  }
}
