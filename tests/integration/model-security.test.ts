import { test } from 'node:test';
import fc from 'fast-check';
import { Restart, setUp, setUpArbitrary, stepsArbitrary } from '../support/model/commands.ts';
import { Run } from '../support/model/harness.ts';
import { emptyStats } from '../support/model/stats.ts';
import { BACKENDS, type Backend } from '../support/model/keyring.ts';
import { initialModel, type Model } from '../support/model/model.ts';
import { restoreCertificates, startWorld } from '../support/model/world.ts';

/**
 * Model-based security test: random sequences of the operator's calls (some started two or
 * three at once), full disks, server-side expiry and restarts under a changing keyring, against
 * the real service on real files and real loopback panels, some of them over TLS with
 * self-signed certificates. The operator trusts what a panel presented (or tries a fingerprint it
 * never presented), pastes imports (an attacker's pin for a panel in the list, or for a new panel
 * on another port of the same host, or harmless ones), and servers swap to an attacker's
 * certificate and back. The scheduler decides the order of every await that matters (each call's
 * start, each panel's answer, each isAvailable, encrypt and decrypt). After every step: no
 * sign-in the operator ended comes back, and its token goes nowhere again and (the panel being
 * reachable) is no longer accepted there; no password or token reaches a server presenting a
 * certificate not trusted for the panel there; an import moves no pin and no token; no secret
 * goes to the wrong server or into a file, no weak copy without the setting, and a restart now
 * would sign in exactly the panels whose saved token it can read. See tests/support/model/.
 *
 * PANELDECK_MODEL_RUNS sets the number of sequences (default 150, about 15 s, a minute on a
 * machine loaded several times over; `npm run test:deep` runs 5000), PANELDECK_MODEL_MAX_COMMANDS
 * their length (default 20); PANELDECK_MODEL_SEED and PANELDECK_MODEL_PATH replay a failure
 * fast-check printed; PANELDECK_MODEL_TRACE=1 prints every sequence.
 */

/** `npm run test:deep` passes --deep. */
const runs = Number(process.env.PANELDECK_MODEL_RUNS ?? (process.argv.includes('--deep') ? 5000 : 150));
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
  // Easypanel 2.33's API, which has a log out (the reference panel's simple style has none).
  const world = await startWorld(6, 2, { tls: 3, style: 'public', systemTrusted: true });
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
        await restoreCertificates(world);
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
    await fc
      .assert(property, {
        numRuns: runs,
        ...(seed === undefined ? {} : { seed }),
        ...(path === undefined ? {} : { path, endOnFailure: true }),
      })
      .catch((error: unknown) => {
        // The test runner prints the message only: the broken rule, with its trace, is the cause.
        const cause = (error as { cause?: unknown }).cause;
        throw cause instanceof Error ? new Error(`${(error as Error).message}\n${cause.message}`, { cause }) : error;
      });
  } finally {
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const line =
      `model-based run: ${stats.sequences} sequences, ${stats.commands} commands, ${stats.calls} service calls, ` +
      `${stats.tasks} scheduled tasks (interleaving points), ${stats.restarts} restarts, ${stats.shadowRestarts} restart checks, ` +
      `${stats.faultsFired} disk-full failures (${stats.failedStarts} at start), ` +
      `${stats.passwordsToMovedPanel} passwords sent to a panel's new address by a log in racing the move; ` +
      `TLS: ${stats.tlsSecrets} passwords and tokens received over trusted certificates, ${stats.certificateRefusals} certificate refusals, ` +
      `${stats.trusted} certificates trusted, ${stats.refusedTrusts} never-presented fingerprints refused, ${stats.swaps} certificate swaps, ` +
      `${stats.imports} imports (${stats.pinsIgnored} with a pin for a panel in the list); ` +
      `${stats.endedSignIns} sign-ins ended by log out or removal (${stats.endedAtPanelChecked} checked at the reachable panel), ` +
      `${stats.droppedLogInsChecked} log ins ending signed out checked at the reachable panel, ` +
      `tokens dropped or ended here whose session the panel still accepted: ${JSON.stringify(stats.sessionsLeftOpen)}; ${seconds} s`;
    t.diagnostic(line);
    console.log(line);
    await world.close();
  }
});
