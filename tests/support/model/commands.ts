import fc from 'fast-check';
import { PanelError } from '../../../shared/contract/errors.ts';
import { Violation, type Run, type DiskFault } from './harness.ts';
import { checkInvariants, checkRestartListing } from './invariants.ts';
import { checkTrust } from './token-checks.ts';
import { BACKENDS, isStrong, type Backend } from './keyring.ts';
import { adoptCopy, describeModel, type Model } from './model.ts';
import { describeSpec, type CallSpec } from './calls.ts';
import { callSpecArbitrary } from './spec-arbitrary.ts';
import { runGroup } from './group.ts';
import { notePanel, recordBefore, type StepRecord } from './step-record.ts';
import { certificateName } from './tls-calls.ts';

/** The operator's and the world's moves, as fast-check commands over the model and a `Run`. */

abstract class Step implements fc.AsyncCommand<Model, Run> {
  /** The order of this step's awaits; `null` keeps the scheduler of the step before. */
  readonly scheduler: fc.Scheduler | null;
  constructor(scheduler: fc.Scheduler | null) {
    this.scheduler = scheduler;
  }

  /** A replay (while shrinking) starts each scheduler afresh, so it picks the same order again. */
  protected freshScheduler(): fc.Scheduler | null {
    return this.scheduler === null ? null : fc.cloneIfNeeded(this.scheduler);
  }

  check(): boolean {
    // Every command applies in any state: the panels and addresses it names are picked when it runs.
    return true;
  }

  async run(model: Model, run: Run): Promise<void> {
    run.stats.commands++;
    if (this.scheduler) run.s = this.scheduler;
    // A task no scheduler releases would hang the test silently: after 20 s, say where it is.
    const watchdog = setTimeout(() => {
      const pending = run.s
        .report()
        .filter((task) => task.status === 'pending')
        .map((task) => task.label);
      console.log(`STUCK in ${this}\n${run.trace.join('\n')}\npending: ${pending.join(', ')}\nreleased: ${run.released.join(', ')}`);
    }, 20_000);
    const record = recordBefore(run.world, model);
    await this.act(model, run, record)
      .catch((error: unknown) => {
        // A password or token that reached an untrusted server is the violation to name, before a wrong answer.
        if (error instanceof Violation) checkTrust(run, run.peekRequests(), record);
        throw error;
      })
      .finally(() => clearTimeout(watchdog));
    for (const panel of model.panels) notePanel(run.world, record, panel, panel.target, panel.pin);
    run.trace.push(`     → ${describeModel(model)}`);
    await checkInvariants(run, model, record);
  }

  protected abstract act(model: Model, run: Run, record: StepRecord): Promise<void>;
  abstract toString(): string;
  abstract [fc.cloneMethod](): Step;
}

/** One to three calls at once: `logIn(P1) ‖ weak(on) ‖ logOut(P2)`. */
export class Group extends Step {
  readonly specs: readonly CallSpec[];
  constructor(specs: readonly CallSpec[], scheduler: fc.Scheduler | null) {
    super(scheduler);
    this.specs = specs;
  }
  [fc.cloneMethod](): Group {
    return new Group(this.specs, this.freshScheduler());
  }
  protected act(model: Model, run: Run, record: StepRecord): Promise<void> {
    return runGroup(run, model, this.specs, record);
  }
  toString(): string {
    return this.specs.map(describeSpec).join(' ‖ ');
  }
}

/** The next write (of one document, or of any) fails with ENOSPC, once. */
export class DiskFull extends Step {
  readonly fault: DiskFault;
  constructor(fault: DiskFault) {
    super(null);
    this.fault = fault;
  }
  [fc.cloneMethod](): DiskFull {
    return new DiskFull(this.fault);
  }
  protected async act(_model: Model, run: Run): Promise<void> {
    run.fault = { ...this.fault };
    run.note(`${this}`);
  }
  toString(): string {
    return `diskFull(${this.fault.target}${this.fault.skip ? `, after ${this.fault.skip} write(s)` : ''})`;
  }
}

/** The server invalidates every token it issued, as a server-side logout or expiry would. */
export class Expire extends Step {
  readonly server: number;
  constructor(server: number) {
    super(null);
    this.server = server;
  }
  [fc.cloneMethod](): Expire {
    return new Expire(this.server);
  }
  protected async act(model: Model, run: Run): Promise<void> {
    // A server where a panel is signed in, when there is one: expiring tokens nobody holds tests nothing.
    const hosting = model.panels.flatMap((panel) => (panel.signedIn && panel.target.kind === 'server' ? [panel.target.index] : []));
    const index = hosting.length > 0 ? hosting[this.server % hosting.length]! : this.server % run.world.servers.length;
    const server = run.world.servers[index]!;
    server.panel.expireAllTokens();
    for (const panel of model.panels) {
      if (panel.target.kind === 'server' && panel.target.index === server.index) panel.tokenValid = false;
    }
    run.note(`expire(S${server.index})`);
  }
  toString(): string {
    return `expire(#${this.server})`;
  }
}

/** Paneldeck quits and starts again on the same folder; the OS may offer another backend, or a reset keyring. */
export class Restart extends Step {
  readonly backend: Backend | 'same';
  readonly resetKeyring: boolean;
  constructor(backend: Backend | 'same', resetKeyring: boolean, scheduler: fc.Scheduler | null) {
    super(scheduler);
    this.backend = backend;
    this.resetKeyring = resetKeyring;
  }
  [fc.cloneMethod](): Restart {
    return new Restart(this.backend, this.resetKeyring, this.freshScheduler());
  }
  protected async act(model: Model, run: Run): Promise<void> {
    const backend = this.backend === 'same' ? run.backend : this.backend;
    run.released.length = 0;
    const firedBefore = run.faultsFired;
    await run.restart(backend, this.resetKeyring && isStrong(backend));
    let failedStart = '';
    try {
      await run.opened();
    } catch (error) {
      // The disk was full at start: every call of that run fails; the operator starts again.
      if (!(error instanceof PanelError) || error.code !== 'STORAGE') run.fail(`[restart] the start failed with ${String(error)}`);
      failedStart = ' → the start failed with STORAGE; started again';
      run.stats.failedStarts++;
      await run.restart(backend, false);
      await run.opened();
    }
    const listing = await run.wait(run.core.listPanels());
    const status = await run.wait(run.core.getAppStatus());
    run.note(`restart(${backend}${this.resetKeyring && isStrong(backend) ? ', keyring reset' : ''})${failedStart}`);
    if (run.released.some((label) => label.startsWith('ENOSPC'))) run.trace.push(`     order: ${run.released.join(', ')}`);
    checkRestartListing(run, model, listing, backend, 'the restart', run.faultsFired > firedBefore);
    if (status.settings.storeTokensWithWeakProtection !== model.weak) run.fail('[restart] the setting did not persist');
    const level = isStrong(backend) ? 'keyring' : backend === 'basic_text' ? 'weak' : 'memory';
    if (status.tokenProtection.level !== level) run.fail(`[restart] protection ${status.tokenProtection.level}, expected ${level}`);
    const disk = run.storedTokens();
    // The start drops what the panel list says has ended or is gone, unless the disk refuses.
    if (run.faultsFired === firedBefore) {
      for (const id of disk.keys()) {
        const removed = model.removed.find((panel) => panel.id === id);
        const ended = model.panels.find((panel) => panel.id === id && panel.ended !== null);
        if (removed)
          run.fail(`[restart cleanup] tokens.json still holds the token of ${removed.label}, removed, after a start that could write`);
        if (ended)
          run.fail(`[restart cleanup] tokens.json still holds the token of ${ended.label} (${ended.ended}) after a start that could write`);
      }
    }
    model.backend = backend;
    for (const panel of model.panels) {
      const entry = listing.find((candidate) => candidate.id === panel.id)!;
      panel.signedIn = entry.signedIn;
      panel.storage = entry.tokenStorage;
      // The session cache is memory only.
      panel.sessionRead = false;
      panel.copy = adoptCopy(panel.copy, disk.get(panel.id), run.keyrings);
      // The pins are in the panel list; what was presented and refused was this run's only.
      const pin = entry.trustedCertificate?.sha256 ?? null;
      if (pin !== panel.pin)
        run.fail(
          `[restart] ${panel.label} trusts ${certificateName(run.world, pin)} after the restart; it trusted ${certificateName(run.world, panel.pin)}`,
        );
      panel.presented = null;
    }
  }
  toString(): string {
    return `restart(${this.backend}${this.resetKeyring ? ', keyring reset' : ''})`;
  }
}

function stepArbitrary(without: ReadonlySet<string>): fc.Arbitrary<Step> {
  const steps: [string, number, fc.Arbitrary<Step>][] = [
    [
      'group',
      16,
      fc
        .tuple(fc.array(callSpecArbitrary(without), { minLength: 1, maxLength: without.has('concurrent') ? 1 : 3 }), fc.scheduler())
        .map(([specs, scheduler]) => new Group(specs, scheduler)),
    ],
    [
      'diskFull',
      2,
      fc
        .record({
          target: fc.constantFrom('any' as const, 'tokens' as const, 'panels' as const, 'settings' as const),
          skip: fc.nat({ max: 2 }),
        })
        .map((fault) => new DiskFull(fault)),
    ],
    ['expire', 2, fc.nat({ max: 5 }).map((server) => new Expire(server))],
    [
      'restart',
      3,
      fc
        .record({
          backend: fc.constantFrom<Backend | 'same'>('same', ...BACKENDS),
          resetKeyring: fc.oneof({ weight: 5, arbitrary: fc.constant(false) }, fc.constant(true)),
          scheduler: fc.scheduler(),
        })
        .map(({ backend, resetKeyring, scheduler }) => new Restart(backend, resetKeyring, scheduler)),
    ],
  ];
  return fc.oneof(...steps.filter(([kind]) => !without.has(kind)).map(([, weight, arbitrary]) => ({ weight, arbitrary })));
}

/** The start of every sequence: maybe weak protection on, then a few panels at the reference panels, some of them signed in. */
export interface SetUp {
  weak: boolean;
  signedIn: boolean[];
}

export const setUpArbitrary: fc.Arbitrary<SetUp> = fc.record({
  weak: fc.oneof({ weight: 3, arbitrary: fc.constant(false) }, fc.constant(true)),
  signedIn: fc.array(fc.boolean(), { minLength: 0, maxLength: 3 }),
});

export async function setUp(model: Model, run: Run, { weak, signedIn }: SetUp): Promise<void> {
  if (weak) await new Group([{ kind: 'weak', on: true }], null).run(model, run);
  for (const [index, logIn] of signedIn.entries()) {
    // `to: 0` is the first address not in use: the reference panels come before the free ports.
    await new Group([{ kind: 'add', to: 0 }], null).run(model, run);
    if (!logIn) continue;
    await new Group([{ kind: 'logIn', pick: index, right: true }], null).run(model, run);
    // Over TLS the first log in is refused: the operator trusts what the panel presented, and logs in again.
    if (model.panels[index]?.presented) {
      await new Group([{ kind: 'trust', pick: index, presented: true, other: 0 }], null).run(model, run);
      await new Group([{ kind: 'logIn', pick: index, right: true }], null).run(model, run);
    }
  }
}

export function stepsArbitrary(
  maxCommands: number,
  without: ReadonlySet<string> = new Set(),
): fc.Arbitrary<Iterable<fc.AsyncCommand<Model, Run>>> {
  return fc.commands([stepArbitrary(without)], { maxCommands, size: 'max' });
}
