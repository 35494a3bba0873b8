import type { ErrorCode } from '../../../shared/contract/errors.ts';
import type { Panel } from '../../../shared/types.ts';
import type { Call, Code } from './calls.ts';
import type { Outcome, Run } from './harness.ts';
import type { PanelModel } from './model.ts';
import type { Result } from './calls.ts';
import { certificateName } from './tls-calls.ts';
import { sameTarget, tlsServerAt, type Certificate, type Target } from './world.ts';

/**
 * What TLS and trust let a group's calls answer: a connection passes when the server presents the
 * panel's pin, or, the panel having none, a certificate the system trusts.
 */

/** What a connection to the panel's server comes to: it passes, or it is refused before anything is sent. */
export type Verdict = 'pass' | 'CERTIFICATE_UNTRUSTED' | 'CERTIFICATE_CHANGED' | 'NETWORK';

/** By TLS server: the certificate it presented when the group started. */
export type Presenting = Map<number, Certificate>;

export function presentingNow(run: Run): Presenting {
  return new Map(run.world.servers.flatMap((server) => (server.tls ? [[server.index, server.tls.presenting] as const] : [])));
}

/** With a pin, exactly that certificate passes (even another the system trusts is refused); without, what the system trusts. */
export function verdict(target: Target, pin: string | null, presented: Certificate | undefined): Verdict {
  if (target.kind === 'free') return 'NETWORK';
  if (presented === undefined) return 'pass';
  if (pin === null) return presented.systemTrusted ? 'pass' : 'CERTIFICATE_UNTRUSTED';
  return pin === presented.sha256 ? 'pass' : 'CERTIFICATE_CHANGED';
}

export class TlsJudge {
  readonly #run: Run;
  readonly #calls: Call[];
  readonly #outcomes: Outcome<Result>[];
  readonly #before: Presenting;

  constructor(run: Run, calls: Call[], outcomes: Outcome<Result>[], before: Presenting) {
    this.#run = run;
    this.#calls = calls;
    this.#outcomes = outcomes;
    this.#before = before;
  }

  #on(panel: PanelModel): Call[] {
    return this.#calls.filter((call) => 'panel' in call && call.panel === panel);
  }

  /** Whether the group swapped the certificate of the server at `target`. */
  swapped(target: Target): boolean {
    return target.kind === 'server' && this.#calls.some((call) => call.kind === 'swap' && call.server === target.index);
  }

  /** Every verdict a connection of the panel's may have met during the group (its moves, trusts and swaps included). */
  verdicts(panel: PanelModel): Set<Verdict> {
    const moves = this.#on(panel).flatMap((call) => (call.kind === 'readdress' ? [call.target] : []));
    const pins = [panel.pin, ...this.#on(panel).flatMap((call) => (call.kind === 'trust' ? [call.sha256] : []))];
    const verdicts = new Set<Verdict>();
    for (const target of [panel.target, ...moves]) {
      const tls = tlsServerAt(this.#run.world, target);
      const shown = tls ? [this.#before.get(tls.index), tls.tls.presenting] : [undefined];
      // At a new address the pin is gone.
      for (const pin of sameTarget(target, panel.target) ? pins : [null]) for (const sha of shown) verdicts.add(verdict(target, pin, sha));
      // A swap closes the connections made before it: a request racing it may meet a closed one.
      if (this.swapped(target)) verdicts.add('NETWORK');
    }
    return verdicts;
  }

  /** The refusals the panel's connections may have met. */
  refusals(panel: PanelModel): ErrorCode[] {
    return [...this.verdicts(panel)].filter((one): one is Exclude<Verdict, 'pass'> => one !== 'pass');
  }

  /** Whether the panel's server certainly took the panel's token in the whole group. */
  reachable(panel: PanelModel): boolean {
    if (panel.target.kind !== 'server' || this.swapped(panel.target)) return false;
    const verdicts = this.verdicts(panel);
    return verdicts.size === 1 && verdicts.has('pass');
  }

  /** A refusal names the certificate the panel's server presented (its own or the attacker's). */
  checkRefusal(panel: PanelModel, code: string, certificate: string | null, what: string): void {
    if (code !== 'CERTIFICATE_UNTRUSTED' && code !== 'CERTIFICATE_CHANGED') return;
    this.#run.stats.certificateRefusals++;
    const world = this.#run.world;
    const moved = this.#on(panel).some((call) => call.kind === 'readdress');
    const servers = moved ? world.servers : [tlsServerAt(world, panel.target)].flatMap((server) => (server ? [server] : []));
    const possible = new Set([
      ...world.attackers.map((one) => one.sha256),
      ...servers.flatMap((server) => (server.tls ? [server.tls.own.sha256] : [])),
    ]);
    if (certificate === null || !possible.has(certificate))
      this.#run.fail(`[trust] ${what} refused a certificate (${code}) without naming one the server presented: ${certificate}`);
  }

  /** The pins the panel may have after the group: its own unless the operator trusted another, or it moved. */
  checkPin(panel: PanelModel, entry: Panel): string | null {
    const pin = entry.trustedCertificate?.sha256 ?? null;
    const possible = new Set<string | null>([panel.pin]);
    for (const call of this.#on(panel)) {
      const outcome = this.#outcomes[this.#calls.indexOf(call)]!;
      const uncertain = !outcome.ok && outcome.code === 'STORAGE';
      if (call.kind === 'trust' && (outcome.ok || uncertain)) possible.add(call.sha256);
      if (call.kind === 'readdress') possible.add(null);
    }
    if (!possible.has(pin)) {
      const world = this.#run.world;
      const imported = this.#calls.some((call) => call.kind === 'import' && call.existing === panel);
      this.#run.fail(
        `[${imported ? 'import' : 'trust'}] ${panel.label} now trusts ${certificateName(world, pin)}; it trusted ${certificateName(world, panel.pin)}` +
          `${imported ? ', and an import naming its address must never change that' : ', and no call of the operator changed it'}`,
      );
    }
    return pin;
  }

  /** What trustCertificate may answer: a fingerprint never presented is refused; the one presented is trusted. */
  trustAllowed(call: Extract<Call, { kind: 'trust' }>, alone: boolean): Set<Code> {
    const panel = call.panel;
    const allowed = new Set<Code>(['INVALID_INPUT']);
    const others = this.#on(panel).filter((other) => other !== call);
    const refusedNow = others.some((other) => {
      const outcome = this.#outcomes[this.#calls.indexOf(other)]!;
      return !outcome.ok && outcome.certificate === call.sha256;
    });
    const checked = this.#calls.some((other) => other.kind === 'check');
    if (call.never) {
      // Only after a move here could a server there have presented it.
      if (others.some((other) => other.kind === 'readdress')) allowed.add('OK');
      return allowed;
    }
    if (panel.presented === call.sha256 || panel.presented === 'unknown' || refusedNow || checked) allowed.add('OK');
    // Alone, with the certificate the model saw refused: it must be trusted.
    if (alone && panel.presented === call.sha256) allowed.delete('INVALID_INPUT');
    return allowed;
  }
}
