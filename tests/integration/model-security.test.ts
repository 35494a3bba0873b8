import { test } from 'node:test';
import fc from 'fast-check';
import { Restart, setUp, setUpArbitrary, stepsArbitrary } from '../support/model/commands.ts';
import { emptyStats, Run } from '../support/model/harness.ts';
import { BACKENDS, type Backend } from '../support/model/keyring.ts';
import { initialModel, type Model } from '../support/model/model.ts';
import { startWorld } from '../support/model/world.ts';

/**
 * Model-based security test: random sequences of the operator's calls (some started two or
 * three at once), full disks, server-side expiry and restarts under a changing keyring, against
 * the real service on real files and real loopback panels. The scheduler decides the order of
 * every await that matters (each call's start, each panel's answer, each isAvailable, encrypt
 * and decrypt). After every step: no sign-in the operator ended comes back, no secret goes to
 * the wrong server or into a file, no weak copy without the setting, and a restart now would
 * sign in exactly the panels whose saved token it can read. See tests/support/model/.
 *
 * PANELDECK_MODEL_RUNS sets the number of sequences (default 300; `npm run test:deep` runs
 * 5000), PANELDECK_MODEL_MAX_COMMANDS their length (default 20); PANELDECK_MODEL_SEED and
 * PANELDECK_MODEL_PATH replay a failure fast-check printed; PANELDECK_MODEL_TRACE=1 prints
 * every sequence.
 */

/** `npm run test:deep` passes --deep. */
const runs = Number(process.env.PANELDECK_MODEL_RUNS ?? (process.argv.includes('--deep') ? 5000 : 300));
const seed = process.env.PANELDECK_MODEL_SEED === undefined ? undefined : Number(process.env.PANELDECK_MODEL_SEED);
const path = process.env.PANELDECK_MODEL_PATH;
const maxCommands = Number(process.env.PANELDECK_MODEL_MAX_COMMANDS ?? 20);
/** For hunting: kinds of steps or calls to leave out (e.g. `diskFull,restart`, or `concurrent`), so that a bug found does not hide the next. */
const without = new Set((process.env.PANELDECK_MODEL_WITHOUT ?? '').split(',').filter(Boolean));
/** basic_text more often than the others: it is where the weak-protection setting matters. */
const backendArbitrary = process.env.PANELDECK_MODEL_BACKEND
  ? fc.constant(process.env.PANELDECK_MODEL_BACKEND as Backend)
  : fc.oneof({ weight: 2, arbitrary: fc.constant<Backend>('basic_text') }, fc.constantFrom<Backend>(...BACKENDS));

test(`model: ${runs} random sequences of interleaved calls keep every sign-in the operator ended ended, and every secret in its place`, async (t) => {
  const world = await startWorld(4, 2);
  const stats = emptyStats();
  const started = performance.now();
  try {
    const property = fc.asyncProperty(
      fc.scheduler(),
      backendArbitrary,
      setUpArbitrary,
      stepsArbitrary(maxCommands, without),
      async (s, backend, start, steps) => {
        stats.sequences++;
        const run = new Run(world, s, backend, stats);
        const model: Model = initialModel(backend);
        run.trace.push(`0. start(${backend})`);
        try {
          await run.opened();
          await setUp(model, run, start);
          await fc.asyncModelRun(() => ({ model, real: run }), steps);
          // At the end, as after every step: a restart with the same keyring.
          await new Restart('same', false, null).run(model, run);
        } finally {
          if (process.env.PANELDECK_MODEL_TRACE) console.log(`${run.trace.join('\n')}\n`);
          run.cleanup();
        }
      },
    );
    await fc.assert(property, {
      numRuns: runs,
      ...(seed === undefined ? {} : { seed }),
      ...(path === undefined ? {} : { path, endOnFailure: true }),
    });
  } finally {
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const line =
      `model-based run: ${stats.sequences} sequences, ${stats.commands} commands, ${stats.calls} service calls, ` +
      `${stats.tasks} scheduled tasks (interleaving points), ${stats.restarts} restarts, ${stats.shadowRestarts} restart checks, ` +
      `${stats.faultsFired} disk-full failures (${stats.failedStarts} at start), ` +
      `${stats.passwordsToMovedPanel} passwords sent to a panel's new address by a log in racing the move, ${seconds} s`;
    t.diagnostic(line);
    console.log(line);
    await world.close();
  }
});
