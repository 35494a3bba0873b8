import type { AppStatus, Panel, PanelCheck, SessionResult } from '../../../shared/types.ts';
import { codeOf, describeCall, type Call, type Code, type Result } from './calls.ts';
import type { Outcome, Run, StoredEntry } from './harness.ts';
import { adoptCopy, storageFor, type Ending, type Model, type PanelModel } from './model.ts';
import { addedPanels, checkImportAnswer, presentedAfter } from './import-judge.ts';
import type { Imported } from './tls-calls.ts';
import { checkSequentialPolicy, checkSessionOwner, checkStorage } from './storage-judge.ts';
import { TlsJudge, type Presenting } from './tls-judge.ts';
import { sameTarget, targetAddress, targetOfBaseUrl } from './world.ts';

/** Holds one group's answers and the core's state after it to the model, then updates the model. */
export class GroupJudge {
  readonly #run: Run;
  readonly #model: Model;
  readonly #calls: Call[];
  readonly #outcomes: Outcome<Result>[];
  readonly #faultFired: boolean;
  readonly tls: TlsJudge;

  constructor(run: Run, model: Model, calls: Call[], outcomes: Outcome<Result>[], faultFired: boolean, presenting: Presenting) {
    this.#run = run;
    this.#model = model;
    this.#calls = calls;
    this.#outcomes = outcomes;
    this.#faultFired = faultFired;
    this.tls = new TlsJudge(run, calls, outcomes, presenting);
  }

  #on(panel: PanelModel): Call[] {
    return this.#calls.filter((call) => 'panel' in call && call.panel === panel);
  }

  #outcome(call: Call): Outcome<Result> {
    return this.#outcomes[this.#calls.indexOf(call)]!;
  }

  /** Calls that end the panel's sign-in whatever they answer. */
  #endings(panel: PanelModel): Call[] {
    return this.#on(panel).filter((call) => call.kind === 'logOut' || call.kind === 'remove' || call.kind === 'readdress');
  }

  #has(panel: PanelModel, kind: Call['kind']): boolean {
    return this.#on(panel).some((call) => call.kind === kind);
  }

  /** Whether a log in of the panel succeeded in this group. */
  #loggedInNow(id: string): boolean {
    const before = this.#model.panels.find((candidate) => candidate.id === id);
    return before !== undefined && this.#on(before).some((call) => call.kind === 'logIn' && this.#outcome(call).ok);
  }

  #hasCall(kind: Call['kind']): boolean {
    return this.#calls.some((call) => call.kind === kind);
  }

  /** Whether the group reads the panel's session (which may end its sign-in with a 401). */
  #reads(panel: PanelModel): boolean {
    return (
      this.#has(panel, 'getSession') || this.#calls.some((call) => call.kind === 'check' && (call.panel === null || call.panel === panel))
    );
  }

  /** What the group's session reads of the panel answered: getSession calls and checkPanels entries. */
  #readOutcomes(panel: PanelModel): Code[] {
    const codes: Code[] = [];
    for (const call of this.#calls) {
      const outcome = this.#outcome(call);
      if (call.kind === 'getSession' && call.panel === panel) codes.push(codeOf(outcome));
      if (call.kind !== 'check' || !outcome.ok) continue;
      for (const entry of outcome.value as PanelCheck[]) if (entry.panelId === panel.id) codes.push(entry.ok ? 'OK' : entry.error.code);
    }
    return codes;
  }

  /** The certificates the panel's calls and check entries in the group were refused, as they named them. */
  refusedCertificates(panel: PanelModel): string[] {
    const codes: string[] = [];
    for (const call of this.#calls) {
      const outcome = this.#outcome(call);
      if ('panel' in call && call.panel === panel && !outcome.ok && outcome.certificate) codes.push(outcome.certificate);
      if (call.kind !== 'check' || !outcome.ok) continue;
      for (const entry of outcome.value as PanelCheck[])
        if (entry.panelId === panel.id && !entry.ok && entry.error.certificate) codes.push(entry.error.certificate.sha256);
    }
    return codes;
  }

  /** What one session read of the panel may answer, given the rest of the group. */
  #readAllowed(panel: PanelModel): Set<Code> {
    const allowed = new Set<Code>(this.#faultFired ? ['STORAGE'] : []);
    const verdicts = this.tls.verdicts(panel);
    if (!panel.signedIn) allowed.add('NOT_SIGNED_IN');
    else if (verdicts.has('pass')) allowed.add(panel.tokenValid ? 'OK' : 'UNAUTHORIZED');
    // Refused before the token is sent: the sign-in stays.
    if (panel.signedIn || this.#has(panel, 'logIn')) for (const code of this.tls.refusals(panel)) allowed.add(code);
    // Another call on the panel (or a second read, whose 401 ends the sign-in) may end it first.
    if (this.#on(panel).length > 1 || this.#calls.filter((call) => call.kind === 'check').length > 0) allowed.add('NOT_SIGNED_IN');
    if (this.#has(panel, 'logIn')) for (const code of ['OK', 'NOT_SIGNED_IN', 'UNAUTHORIZED'] as const) allowed.add(code);
    if (this.#has(panel, 'remove')) allowed.add('NOT_FOUND');
    if (this.#hasCall('cancel')) allowed.add('CANCELLED');
    return allowed;
  }

  judge(listing: Panel[], status: AppStatus): void {
    for (const [index, call] of this.#calls.entries()) this.#checkAnswer(call, this.#outcomes[index]!);
    const weak = this.#settingAfter(status);
    const disk = this.#run.storedTokens();
    const next: PanelModel[] = [];
    for (const panel of this.#model.panels) {
      const entry = listing.find((candidate) => candidate.id === panel.id);
      const updated = this.#panelAfter(panel, entry, disk.get(panel.id));
      if (updated) next.push(updated);
    }
    next.push(...addedPanels(this.#run, this.#model, this.#calls, this.#outcomes, listing));
    const pending = this.#pendingAfter(weak, listing, disk);
    for (const entry of listing)
      if (entry.signedIn)
        checkStorage(
          this.#run,
          entry,
          { weak, pending, freshLogIn: this.#loggedInNow(entry.id) },
          next.find((panel) => panel.id === entry.id),
        );
    checkSequentialPolicy(this.#run, this.#calls, this.#faultFired, listing);
    this.#model.panels = next;
    this.#model.nextLabel += this.#calls.filter((call) => call.kind === 'add' || (call.kind === 'import' && call.label)).length;
    this.#model.weak = weak;
    this.#model.weakCleanupPending = pending;
  }

  /** Each call's answer is one the model allows given the others in the group. */
  #checkAnswer(call: Call, outcome: Outcome<Result>): void {
    const allowed = new Set<Code>(this.#faultFired ? ['STORAGE'] : []);
    const panel = 'panel' in call ? call.panel : null;
    const removing = panel !== null && this.#has(panel, 'remove');
    if (removing && call.kind !== 'remove') allowed.add('NOT_FOUND');
    switch (call.kind) {
      case 'logIn': {
        for (const code of this.tls.refusals(call.panel)) allowed.add(code);
        if (this.tls.verdicts(call.panel).has('pass')) allowed.add(call.right ? 'OK' : 'INVALID_CREDENTIALS');
        // Dropped: the sign-in ended (log out, move, a 401 to a read) while the log in was under way.
        if (this.#endings(call.panel).length > 0 || (this.#reads(call.panel) && !call.panel.tokenValid)) allowed.add('NOT_SIGNED_IN');
        // Sent to the panel's new address.
        if (this.#has(call.panel, 'readdress')) for (const code of ['INVALID_CREDENTIALS', 'NETWORK'] as const) allowed.add(code);
        break;
      }
      case 'getSession':
        for (const code of this.#readAllowed(call.panel)) allowed.add(code);
        break;
      case 'trust':
        for (const code of this.tls.trustAllowed(call, this.#calls.length === 1 && !this.#faultFired)) allowed.add(code);
        break;
      default:
        allowed.add('OK');
    }
    const code = codeOf(outcome);
    if (call.kind === 'trust' && call.never && code === 'INVALID_INPUT') this.#run.stats.refusedTrusts++;
    if (call.kind === 'swap') this.#run.stats.swaps++;
    if (panel && !outcome.ok) this.tls.checkRefusal(panel, code, outcome.certificate, describeCall(this.#run, call));
    if (!allowed.has(code)) {
      this.#run.fail(
        `[answer] ${describeCall(this.#run, call)} answered ${code}${outcome.ok ? '' : `: ${outcome.message}`}; allowed: ${[...allowed].join(', ')}`,
      );
    }
    if (outcome.ok) this.#checkValue(call, outcome.value);
  }

  #checkValue(call: Call, value: Result): void {
    const fail = (message: string) => this.#run.fail(`[answer] ${describeCall(this.#run, call)}: ${message}`);
    const panel = value as Panel;
    switch (call.kind) {
      case 'logIn': {
        if (panel.id !== call.panel.id || !panel.signedIn) fail('the answer is not the panel, signed in');
        const plain = this.#calls.length === 1 && !this.#faultFired;
        const expected = storageFor(this.#run.backend, this.#model.weak);
        if (plain && panel.tokenStorage !== expected) fail(`[liveness] stored as ${panel.tokenStorage}, expected ${expected}`);
        break;
      }
      case 'trust':
        this.#run.stats.trusted++;
        if (this.#calls.length === 1 && panel.trustedCertificate?.sha256 !== call.sha256)
          fail('the answer does not trust that certificate');
        break;
      case 'import':
        checkImportAnswer(this.#run, call, value as Imported, this.#calls.length === 1, fail);
        break;
      case 'logOut':
      case 'readdress':
        if (panel.signedIn) fail('the answer shows the panel still signed in');
        if (call.kind === 'readdress' && panel.baseUrl !== `${targetAddress(this.#run.world, call.target)}/api`)
          fail(`the answer has address ${panel.baseUrl}`);
        break;
      case 'getSession':
        checkSessionOwner(this.#run.world, call.panel, this.#on(call.panel), value as SessionResult, fail);
        break;
      case 'weak':
        if (
          this.#calls.filter((other) => other.kind === 'weak').length === 1 &&
          (value as AppStatus).settings.storeTokensWithWeakProtection !== call.on
        ) {
          fail('the answer has the other setting');
        }
        break;
      case 'add':
        if (panel.signedIn || panel.baseUrl !== `${targetAddress(this.#run.world, call.target)}/api`) fail('not the new panel, signed out');
        break;
      case 'check':
        for (const entry of value as PanelCheck[]) {
          const checked = this.#model.panels.find((candidate) => candidate.id === entry.panelId);
          if (!checked || (call.panel !== null && checked !== call.panel))
            return fail(`a result for ${entry.panelId}, which was not asked for`);
          const code: Code = entry.ok ? 'OK' : entry.error.code;
          if (!entry.ok) this.tls.checkRefusal(checked, code, entry.error.certificate?.sha256 ?? null, `checkPanels(${checked.label})`);
          if (!this.#readAllowed(checked).has(code))
            fail(`${checked.label} checked ${code}; allowed: ${[...this.#readAllowed(checked)].join(', ')}`);
        }
        break;
      case 'cached': {
        if (value === null) break;
        const result = value as SessionResult;
        checkSessionOwner(this.#run.world, call.panel, this.#on(call.panel), result, fail);
        const readNow = this.#readOutcomes(call.panel).includes('OK');
        const signedIn = call.panel.signedIn || this.#has(call.panel, 'logIn');
        if (!signedIn || !(call.panel.sessionRead || readNow))
          fail('[cache] a session shown for a sign-in that has ended, or that never read one');
        break;
      }
      default:
    }
  }

  #settingAfter(status: AppStatus): boolean {
    const weak = status.settings.storeTokensWithWeakProtection;
    const asked = this.#calls.flatMap((call) => (call.kind === 'weak' ? [call] : []));
    const possible = [this.#model.weak, ...asked.map((call) => call.on)];
    if (!possible.includes(weak)) this.#run.fail(`[setting] weak protection is ${weak ? 'on' : 'off'}; nobody asked for that`);
    const [only] = asked;
    if (asked.length === 1 && only && this.#outcome(only).ok && weak !== only.on)
      this.#run.fail('[setting] the setting is not what the operator set');
    return weak;
  }

  /** The panel after the group, or `null` when it is gone. Where a write failed, what the core shows is adopted once it is safe. */
  #panelAfter(panel: PanelModel, entry: Panel | undefined, stored: StoredEntry | undefined): PanelModel | null {
    const fail = (message: string) => this.#run.fail(`${message} (${panel.label})`);
    const removal = this.#on(panel).find((call) => call.kind === 'remove');
    if (!entry) {
      if (!removal) fail('[list] the panel vanished without a removal');
      this.#model.removed.push(panel);
      return null;
    }
    if (removal && this.#outcome(removal).ok) fail('[list] removed, yet still listed');
    const target = targetOfBaseUrl(this.#run.world, entry.baseUrl);
    const move = this.#on(panel).find((call) => call.kind === 'readdress');
    const targets = move?.kind === 'readdress' ? (this.#outcome(move).ok ? [move.target] : [panel.target, move.target]) : [panel.target];
    if (!target || !targets.some((candidate) => sameTarget(candidate, target))) fail(`[list] the panel is at ${entry.baseUrl}`);

    const loggedIn = this.#on(panel).some((call) => call.kind === 'logIn' && this.#outcome(call).ok);
    const endings = this.#endings(panel);
    const readCodes = this.#readOutcomes(panel);
    const rejected = readCodes.includes('UNAUTHORIZED');
    if (entry.signedIn !== (entry.tokenStorage !== null)) fail('[list] signedIn and tokenStorage disagree');
    if (entry.signedIn && !loggedIn) {
      if (panel.ended !== null || endings.length > 0)
        fail(`[invariant 1] signed in again after ${endings[0]?.kind ?? panel.ended}, without a new log in`);
      if (rejected) fail('[expiry] still signed in after the panel rejected its token');
      if (!panel.signedIn) fail('[invariant 1] signed in without a log in');
    }
    if (!entry.signedIn && !this.#faultFired && endings.length === 0 && !rejected && (panel.signedIn || loggedIn)) {
      fail('[liveness] lost its sign-in');
    }
    const ending: Ending | null = endings.some((call) => call.kind === 'remove')
      ? 'remove'
      : endings.some((call) => call.kind === 'readdress')
        ? 'address'
        : endings.length > 0
          ? 'logOut'
          : rejected
            ? 'expired'
            : panel.ended;
    return {
      ...panel,
      target: target ?? panel.target,
      signedIn: entry.signedIn,
      storage: entry.tokenStorage,
      copy: adoptCopy(panel.copy, stored, this.#run.keyrings),
      tokenValid: loggedIn && entry.signedIn ? true : panel.tokenValid,
      ended: entry.signedIn ? null : ending,
      // A new log in empties the cache; a read in this group may have come before or after it.
      sessionRead: entry.signedIn && ((!loggedIn && panel.sessionRead) || readCodes.includes('OK')),
      pin: this.tls.checkPin(panel, entry),
      presented: presentedAfter(panel, this.#calls, this.#outcomes, this.refusedCertificates(panel)),
    };
  }

  /** A "weak off" that failed may leave copies behind until it is retried; one that succeeds must leave none. */
  #pendingAfter(weak: boolean, listing: Panel[], disk: Map<string, StoredEntry>): boolean {
    if (weak) return false;
    const offs = this.#calls.filter((call) => call.kind === 'weak' && !call.on);
    let pending = this.#model.weakCleanupPending;
    if (offs.some((call) => codeOf(this.#outcome(call)) === 'STORAGE')) pending = true;
    else if (offs.some((call) => this.#outcome(call).ok)) pending = false;
    const leftovers =
      [...disk.values()].some((entry) => entry.backend === 'basic_text') || listing.some((entry) => entry.tokenStorage === 'weak');
    return pending && leftovers;
  }
}
