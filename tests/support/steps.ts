import { spawn, spawnSync } from 'node:child_process';

/**
 * Runs the steps of `npm test` (tests/run-all.ts): each step is a command; steps run as soon as
 * the step they come `after` has ended, so two chains run side by side. A step's output is kept
 * and printed whole when it ends, under its name and time, so that two steps never interleave
 * their lines; `stream` prints as it comes instead (for one step at a time).
 */
export interface Step {
  name: string;
  command: string;
  args: string[];
  /** Reads the `N passed, N failed` line the command ends with, and adds it to the totals. */
  counts: boolean;
  /** Starts when this step has ended (whatever its outcome). */
  after?: string;
  /** Not run (and counted as failed) unless these steps passed. */
  needs?: string[];
  /** Killed and failed past this, so that a hung step fails instead of hanging CI. */
  timeoutMs: number;
}

export type Outcome = 'passed' | 'failed' | 'timed out' | 'not run';

export interface StepResult {
  name: string;
  outcome: Outcome;
  ms: number;
  passed: number;
  failed: number;
  /** Why the step did not run, or what its counts could not say. */
  note?: string;
}

const started = Date.now();

export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

const clock = () => {
  const total = Math.round((Date.now() - started) / 1000);
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, '0')}`;
};

/** The children still running, killed with their own children if `npm test` is interrupted. */
const running = new Set<{ name: string; pid: number | undefined; flush(): void }>();

function killTree(pid: number | undefined): void {
  if (pid === undefined) return;
  // Windows has no process groups; taskkill /T ends the tree.
  if (process.platform === 'win32') spawnSync('taskkill', ['/pid', String(pid), '/T', '/F'], { stdio: 'ignore' });
  else {
    for (const target of [-pid, pid]) {
      try {
        // The group first; the process alone if it has none.
        process.kill(target, 'SIGKILL');
        return;
      } catch {
        // Already gone, or not a group leader.
      }
    }
  }
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    // What the running steps printed so far is shown before they are ended, so a CI timeout still says where it hung.
    for (const child of running) {
      child.flush();
      killTree(child.pid);
    }
    process.exit(130);
  });
}

function countsIn(output: string): { passed: number; failed: number } | null {
  const summary = [...output.matchAll(/^(\d+) passed, (\d+) failed/gm)].at(-1);
  return summary ? { passed: Number(summary[1]), failed: Number(summary[2]) } : null;
}

export interface RunOptions {
  /** Print output as it comes, for one step at a time. */
  stream: boolean;
  /** Where the output goes; by default stdout. */
  print?: (text: string) => void;
}

const toStdout = (text: string) => void process.stdout.write(text);

async function runOne(step: Step, { stream, print = toStdout }: RunOptions): Promise<StepResult> {
  const begin = Date.now();
  let output = '';
  const code = await new Promise<number | 'timed out'>((resolve) => {
    const child = spawn(step.command, step.args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      // npm and npx are .cmd files on Windows, which Node starts only through a shell.
      shell: process.platform === 'win32',
      // Its own process group, so that a timeout or an interrupt ends its children too.
      detached: process.platform !== 'win32',
    });
    let printed = 0;
    const handle = {
      name: step.name,
      pid: child.pid,
      flush: () => {
        print(`\n== ${step.name} (interrupted at ${clock()}; its output so far)\n${output.slice(printed)}`);
        printed = output.length;
      },
    };
    running.add(handle);
    const take = (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      output += text;
      if (stream) {
        print(text);
        printed = output.length;
      }
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    const timer = setTimeout(() => {
      killTree(child.pid);
      resolve('timed out');
    }, step.timeoutMs);
    child.on('error', (error) => {
      output += `\n${step.command} could not start: ${error.message}\n`;
    });
    child.on('close', (exitCode) => {
      clearTimeout(timer);
      running.delete(handle);
      resolve(exitCode ?? 1);
    });
  });
  const ms = Date.now() - begin;
  if (!stream) print(`\n== ${step.name}\n${output}`);
  const result: StepResult = { name: step.name, outcome: code === 0 ? 'passed' : 'failed', ms, passed: 0, failed: 0 };
  if (code === 'timed out') {
    result.outcome = 'timed out';
    result.note = `killed after ${seconds(step.timeoutMs)}`;
  }
  if (step.counts) {
    const counts = countsIn(output);
    result.passed = counts?.passed ?? 0;
    result.failed = counts?.failed ?? 0;
    // A runner that failed, or printed no count, must not look green in the total.
    if (!counts) result.note = `${result.note ? `${result.note}; ` : ''}printed no "N passed, N failed" line`;
    if ((result.outcome !== 'passed' || !counts) && result.failed === 0) result.failed = 1;
  }
  print(`<- ${step.name}: ${result.outcome} in ${seconds(ms)} (at ${clock()})${result.note ? `; ${result.note}` : ''}\n`);
  return result;
}

/** Runs every step as soon as it may; resolves with the results in the order of `steps`. */
export async function runSteps(steps: readonly Step[], options: RunOptions): Promise<StepResult[]> {
  const print = options.print ?? toStdout;
  // A line a minute while output is held back, so that a quiet log does not look hung.
  const heartbeat = setInterval(() => {
    if (!options.stream && running.size > 0)
      print(`.. at ${clock()}, still running: ${[...running].map((child) => child.name).join('; ')}\n`);
  }, 60_000);
  // Every step's result is a promise from the start, so that a step may need one listed after it.
  const settlers = new Map<string, (result: StepResult) => void>();
  const results = new Map(steps.map((step) => [step.name, new Promise<StepResult>((resolve) => settlers.set(step.name, resolve))]));
  const resultOf = (name: string) => {
    const result = results.get(name);
    if (!result) throw new Error(`tests/run-all.ts: no step is named "${name}"`);
    return result;
  };
  for (const step of steps) {
    const previous = step.after === undefined ? undefined : resultOf(step.after);
    const needed = (step.needs ?? []).map(resultOf);
    void (async (): Promise<StepResult> => {
      await previous;
      const missing = (await Promise.all(needed)).filter((result) => result.outcome !== 'passed');
      if (missing.length > 0) {
        const note = `not run: ${missing.map((result) => result.name).join(', ')} did not pass`;
        print(`\n== ${step.name}\n-- ${note}\n`);
        return { name: step.name, outcome: 'not run', ms: 0, passed: 0, failed: step.counts ? 1 : 0, note };
      }
      print(options.stream ? `\n== ${step.name}\n` : `-> ${step.name}: started at ${clock()}\n`);
      return runOne(step, options);
    })().then(settlers.get(step.name));
  }
  try {
    return await Promise.all(steps.map((step) => resultOf(step.name)));
  } finally {
    clearInterval(heartbeat);
  }
}

export function elapsed(): number {
  return Date.now() - started;
}
