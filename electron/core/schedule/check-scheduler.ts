import { DEFAULT_SETTINGS } from '../../../shared/settings.ts';
import type { PanelCheck } from '../../../shared/types.ts';

export type { PanelCheck };

/** What the scheduler needs to know of a panel. */
export interface ScheduledPanel {
  id: string;
  signedIn: boolean;
  lastCheckAt: string | null;
}

export type SystemEvent = 'suspend' | 'resume' | 'online' | 'offline';

/** Sleep and network state; the app implements it with Electron's `powerMonitor` and `net.isOnline`. */
export interface SystemState {
  isOnline(): boolean;
  /** Returns a function that unsubscribes. */
  onChange(listener: (event: SystemEvent) => void): () => void;
}

export interface SchedulerClock {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface CheckSchedulerOptions {
  clock: SchedulerClock;
  /** In [0, 1), like `Math.random`. */
  random: () => number;
  check: (ids: string[]) => Promise<PanelCheck[]>;
  /** Cancels the scheduler's pass under way; its `check` then resolves early, perhaps with fewer results. */
  cancel: () => void;
  system: SystemState;
  /** Read every time a delay is worked out, since the operator may change it. 0 turns background checks off. */
  settings: () => { checkIntervalMinutes: number };
  onError?: (error: unknown) => void;
  timing?: Partial<CheckSchedulerTiming>;
}

export const DEFAULT_CHECK_INTERVAL_MINUTES = DEFAULT_SETTINGS.checkIntervalMinutes;
/** A shorter interval would have the fleet checked back to back; a setting below this counts as this. */
export const MIN_CHECK_INTERVAL_MINUTES = 1;
const MINUTE_MS = 60_000;
/** Node runs a timer of more than 2^31−1 ms at once, so long waits are taken in steps of at most a day. */
const MAX_TIMER_DELAY_MS = 24 * 60 * MINUTE_MS;

/** Timings, in ms on the injected clock; `timing` in the options overrides any of them. */
export const DEFAULT_TIMING = Object.freeze({
  /** The first pass starts this long after `start()`… */
  firstPassDelayMs: 5_000,
  /** …and spreads the panels over this much more, so they do not all go in one call. */
  firstPassSpreadMs: 10_000,
  /** "Soon" after a sign-in, a resume, coming online or checks turned back on: 0.5 to 1.5 times this. */
  soonDelayMs: 5_000,
  /** Panels due within this much after the earliest go in the same call. */
  batchWindowMs: 1_000,
  /** Each delay is the interval times 1 ± this (a fresh random draw per check). */
  jitter: 0.1,
  /** The back-off of a failing panel stops growing here (unless the interval itself is longer). */
  maxBackoffMs: 60 * MINUTE_MS,
  /** While checks are off (interval 0), the setting is re-read this often, in case no one says it changed. */
  offPollMs: MINUTE_MS,
});

export type CheckSchedulerTiming = { [Name in keyof typeof DEFAULT_TIMING]: number };

/**
 * Time until the next check of a panel after `failures` consecutive failures: the interval, doubled
 * per failure after the first, capped at `maxBackoffMs` but never shorter than the interval, then
 * jittered by `jitterDraw` (in [0, 1)). Never decreases as failures grow.
 */
export function checkDelayMs(
  intervalMs: number,
  failures: number,
  jitterDraw: number,
  timing: Pick<CheckSchedulerTiming, 'jitter' | 'maxBackoffMs'> = DEFAULT_TIMING,
): number {
  const factor = 1 + timing.jitter * (2 * jitterDraw - 1);
  if (failures <= 0) return intervalMs * factor;
  const backedOff = Math.max(intervalMs, Math.min(intervalMs * 2 ** (failures - 1), timing.maxBackoffMs));
  // The cap holds unless the panel's plain (jittered) interval is longer still.
  return Math.min(backedOff * factor, Math.max(intervalMs * factor, timing.maxBackoffMs));
}

interface PanelState {
  readonly id: string;
  signedIn: boolean;
  /** A check answered NOT_SIGNED_IN: the panel waits for a notice that it is signed in again. */
  awaitingSignIn: boolean;
  /** New on every sign-in, sign-out and (re)adding, so a pass begun before such a change does not apply. */
  epoch: number;
  lastCheckAt: number | null;
  failures: number;
  jitterDraw: number;
  /** null: not scheduled (signed out, awaiting sign-in). */
  dueAt: number | null;
  /** dueAt came from an event (first pass, sign-in, failed call), not from the last check and the interval. */
  dueFixed: boolean;
  /** When the last check outside the schedule (at a session's end) was let through. */
  earlyAt: number | null;
}

interface Pass {
  /** The panels in the call, with their epoch when it began. */
  readonly ids: Map<string, number>;
  readonly startedAt: number;
  cancelled: boolean;
}

/**
 * Decides when each panel's session is read in the background. One timer serves the whole fleet
 * (the earliest due time); when it fires, every panel due by then plus a short batching window
 * goes in a single `check` call, and no call starts while one is under way. A tick scans the
 * panels once; single changes only move the timer earlier, so a timer that then fires with
 * nothing due just sets the next one.
 */
export class CheckScheduler {
  readonly #options: CheckSchedulerOptions;
  readonly #timing: CheckSchedulerTiming;
  readonly #panels = new Map<string, PanelState>();
  /** Results already counted, by identity: the same result can arrive through a pass and through `recordResults`. */
  readonly #applied = new WeakSet<PanelCheck>();
  #epochs = 0;
  #running = false;
  #unsubscribe: (() => void) | null = null;
  #suspended = false;
  #online = true;
  #timer: { handle: unknown; at: number } | null = null;
  /** No pass before this (after a resume, coming online, checks turned back on). */
  #notBefore = 0;
  #pass: Pass | null = null;
  /** The interval the due times were worked out with; 0 while checks are off. */
  #intervalMs = 0;

  constructor(options: CheckSchedulerOptions) {
    this.#options = options;
    this.#timing = { ...DEFAULT_TIMING, ...options.timing };
  }

  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#suspended = false;
    this.#online = this.#options.system.isOnline();
    this.#unsubscribe = this.#options.system.onChange((event) => this.#onSystemEvent(event));
    this.#intervalMs = this.#readIntervalMs();
    const firstPassAt = this.#now() + this.#timing.firstPassDelayMs;
    for (const panel of this.#panels.values()) {
      if (!panel.signedIn || panel.awaitingSignIn) continue;
      panel.dueAt = firstPassAt + this.#options.random() * this.#timing.firstPassSpreadMs;
      panel.dueFixed = true;
    }
    this.#arm();
  }

  /** Clears the timer, unsubscribes, and cancels the scheduler's own pass if one is under way. */
  stop(): void {
    if (!this.#running) return;
    this.#running = false;
    this.#unsubscribe?.();
    this.#unsubscribe = null;
    this.#clearTimer();
    this.#cancelPass();
  }

  /** The whole panel list: panels not in it are forgotten, the others are taken as `panelChanged`. */
  setPanels(panels: readonly ScheduledPanel[]): void {
    const listed = new Set(panels.map((panel) => panel.id));
    for (const id of this.#panels.keys()) if (!listed.has(id)) this.#panels.delete(id);
    for (const panel of panels) this.panelChanged(panel);
  }

  /** A new or newly signed-in panel is checked soon; a signed-out one is no longer scheduled. */
  panelChanged(input: ScheduledPanel): void {
    const panel = this.#panels.get(input.id);
    if (!panel) {
      const added: PanelState = {
        id: input.id,
        signedIn: input.signedIn,
        awaitingSignIn: false,
        epoch: ++this.#epochs,
        lastCheckAt: this.#parseTime(input.lastCheckAt),
        failures: 0,
        jitterDraw: 0.5,
        dueAt: null,
        dueFixed: false,
        earlyAt: null,
      };
      this.#panels.set(input.id, added);
      if (added.signedIn) this.#scheduleSoon(added);
    } else if (!input.signedIn && panel.signedIn) {
      Object.assign(panel, { signedIn: false, awaitingSignIn: false, failures: 0, dueAt: null, epoch: ++this.#epochs });
    } else if (input.signedIn && (!panel.signedIn || panel.awaitingSignIn)) {
      Object.assign(panel, { signedIn: true, awaitingSignIn: false, failures: 0, epoch: ++this.#epochs });
      this.#scheduleSoon(panel);
    }
  }

  panelRemoved(id: string): void {
    this.#panels.delete(id);
  }

  /** Results of checks someone else started ("Check all"): they count as the panels' last checks. */
  recordResults(results: readonly PanelCheck[]): void {
    const now = this.#now();
    for (const result of results) {
      const panel = this.#panels.get(result.panelId);
      if (!panel?.signedIn) continue;
      // A cancelled check says nothing of the panel; and a result seen already (a call that joined
      // the scheduler's own pass answers with the very same result) must not count a failure twice.
      if ((!result.ok && result.error.code === 'CANCELLED') || this.#applied.has(result)) continue;
      const at = this.#parseTime(result.checkedAt) ?? now;
      if (this.#applyResult(panel, result, at) && panel.dueAt !== null) this.#considerDue(panel.dueAt);
    }
  }

  /**
   * Of `ids`, the panels that may be checked now, outside the schedule (their session has just
   * ended): signed in, not backing off after failures, and not checked early within the last
   * interval (at least a minute, also while checks are off). Those returned are marked, so
   * answers that keep naming a session end can never drive checks faster than that.
   */
  takeEarlyChecks(ids: readonly string[]): string[] {
    const now = this.#now();
    const spacing = Math.max(this.#readIntervalMs(), MIN_CHECK_INTERVAL_MINUTES * MINUTE_MS);
    const taken: string[] = [];
    for (const id of ids) {
      const panel = this.#panels.get(id);
      if (!panel?.signedIn || panel.awaitingSignIn || panel.failures > 0) continue;
      if (panel.earlyAt !== null && now - panel.earlyAt < spacing) continue;
      panel.earlyAt = now;
      taken.push(id);
    }
    return taken;
  }

  /** Says the interval may have changed, so the schedule follows at once rather than at the next tick. */
  settingsChanged(): void {
    if (!this.#pass) this.#arm();
  }

  /** When the panel is next due (ms on the injected clock), or null if it is not scheduled. */
  nextCheckAt(id: string): number | null {
    return this.#panels.get(id)?.dueAt ?? null;
  }

  #onSystemEvent(event: SystemEvent): void {
    const wasPaused = this.#paused();
    if (event === 'suspend') this.#suspended = true;
    if (event === 'offline') this.#online = false;
    if (event === 'online') this.#online = true;
    if (event === 'resume') {
      this.#suspended = false;
      // The network may have come or gone while asleep without an event saying so.
      this.#online = this.#options.system.isOnline();
    }
    if (this.#paused() && !wasPaused) {
      this.#clearTimer();
      this.#cancelPass();
    } else if (!this.#paused() && wasPaused) {
      this.#notBefore = this.#now() + this.#soonDelayMs();
      this.#arm();
    }
  }

  #onTimer(): void {
    this.#timer = null;
    if (!this.#running || this.#paused() || this.#pass) return;
    this.#syncInterval();
    const now = this.#now();
    if (this.#intervalMs === 0 || now < this.#notBefore) return this.#arm();
    const until = now + this.#timing.batchWindowMs;
    const due = new Map<string, number>();
    for (const panel of this.#panels.values()) {
      if (panel.dueAt !== null && panel.dueAt <= until) due.set(panel.id, panel.epoch);
    }
    if (due.size === 0) return this.#arm();
    void this.#runPass({ ids: due, startedAt: now, cancelled: false });
  }

  async #runPass(pass: Pass): Promise<void> {
    this.#pass = pass;
    let results: PanelCheck[] | null = null;
    try {
      results = await this.#options.check([...pass.ids.keys()]);
    } catch (error) {
      // A cancelled pass may well end in an abort error: that is not worth telling anyone.
      if (!pass.cancelled) this.#reportError(error);
    }
    this.#pass = null;
    const now = this.#now();
    if (results) {
      for (const result of results) this.#applyPassResult(pass, result, now);
    } else {
      // Try again an interval later, not as a failure of the panels: the fault was not theirs.
      for (const [id, epoch] of pass.ids) {
        const panel = this.#panels.get(id);
        if (panel?.epoch !== epoch || panel.dueAt === null) continue;
        if (panel.dueAt > pass.startedAt + this.#timing.batchWindowMs) continue; // rescheduled meanwhile
        panel.dueAt = now + checkDelayMs(this.#intervalMs, 0, this.#options.random(), this.#timing);
        panel.dueFixed = true;
      }
    }
    this.#arm();
  }

  #applyPassResult(pass: Pass, result: PanelCheck, now: number): void {
    const panel = this.#panels.get(result.panelId);
    if (!panel || pass.ids.get(result.panelId) !== panel.epoch) return;
    // Failures of a pass cut short by sleep, the network going or the operator's Cancel are not the panel's doing.
    if (!result.ok && result.error.code === 'CANCELLED') return;
    if (pass.cancelled && !result.ok && result.error.code !== 'NOT_SIGNED_IN') return;
    // The check happened during the call, whatever the checker's clock says.
    const at = Math.min(Math.max(this.#parseTime(result.checkedAt) ?? now, pass.startedAt), now);
    this.#applyResult(panel, result, at);
  }

  /** Returns false for a result older than the panel's last known check. */
  #applyResult(panel: PanelState, result: PanelCheck, at: number): boolean {
    if (panel.lastCheckAt !== null && at < panel.lastCheckAt) return false;
    this.#applied.add(result);
    panel.lastCheckAt = at;
    panel.jitterDraw = this.#options.random();
    panel.dueFixed = false;
    if (!result.ok && result.error.code === 'NOT_SIGNED_IN') {
      Object.assign(panel, { failures: 0, awaitingSignIn: true, dueAt: null });
      return true;
    }
    // Any other answer means the panel has a session to read, so it is signed in.
    panel.awaitingSignIn = false;
    panel.failures = result.ok ? 0 : panel.failures + 1;
    panel.dueAt = at + checkDelayMs(this.#intervalMs, panel.failures, panel.jitterDraw, this.#timing);
    return true;
  }

  #scheduleSoon(panel: PanelState): void {
    if (!this.#running) return; // start() schedules the first pass
    panel.dueAt = this.#now() + this.#soonDelayMs();
    panel.dueFixed = true;
    this.#considerDue(panel.dueAt);
  }

  /** Re-reads the interval; if it changed, works the due times out again. O(n), only on a change. */
  #syncInterval(): void {
    const intervalMs = this.#readIntervalMs();
    if (intervalMs === this.#intervalMs) return;
    const wasOff = this.#intervalMs === 0;
    this.#intervalMs = intervalMs;
    if (intervalMs === 0) return;
    const now = this.#now();
    for (const panel of this.#panels.values()) {
      if (panel.dueAt === null) continue;
      const delay = checkDelayMs(intervalMs, panel.failures, panel.jitterDraw, this.#timing);
      if (!panel.dueFixed && panel.lastCheckAt !== null) panel.dueAt = panel.lastCheckAt + delay;
      else panel.dueAt = Math.min(panel.dueAt, now + delay);
    }
    if (wasOff) this.#notBefore = now + this.#soonDelayMs();
  }

  /** Sets the one timer for the earliest due panel: O(n). */
  #arm(): void {
    this.#clearTimer();
    if (!this.#running || this.#paused() || this.#pass) return;
    this.#syncInterval();
    if (this.#intervalMs === 0) return this.#setTimer(this.#now() + this.#timing.offPollMs);
    let earliest = Infinity;
    for (const panel of this.#panels.values()) {
      if (panel.dueAt !== null && panel.dueAt < earliest) earliest = panel.dueAt;
    }
    if (earliest !== Infinity) this.#setTimer(Math.max(earliest, this.#notBefore));
  }

  /** After a single change: brings the timer earlier if need be, O(1). */
  #considerDue(dueAt: number): void {
    if (!this.#running || this.#paused() || this.#pass || this.#intervalMs === 0) return;
    const at = Math.max(dueAt, this.#notBefore);
    if (this.#timer && this.#timer.at <= at) return;
    this.#clearTimer();
    this.#setTimer(at);
  }

  #setTimer(at: number): void {
    const delay = Math.min(Math.max(at - this.#now(), 0), MAX_TIMER_DELAY_MS);
    const handle = this.#options.clock.setTimeout(() => this.#onTimer(), delay);
    this.#timer = { handle, at: this.#now() + delay };
  }

  #clearTimer(): void {
    if (this.#timer) this.#options.clock.clearTimeout(this.#timer.handle);
    this.#timer = null;
  }

  #cancelPass(): void {
    if (!this.#pass || this.#pass.cancelled) return;
    this.#pass.cancelled = true;
    try {
      this.#options.cancel();
    } catch (error) {
      this.#reportError(error);
    }
  }

  #readIntervalMs(): number {
    const minutes = this.#options.settings().checkIntervalMinutes;
    if (minutes === 0) return 0;
    // A broken setting should not silence the checks: fall back to the default.
    const usable = Number.isFinite(minutes) && minutes > 0 ? minutes : DEFAULT_CHECK_INTERVAL_MINUTES;
    return Math.max(usable, MIN_CHECK_INTERVAL_MINUTES) * MINUTE_MS;
  }

  #paused(): boolean {
    return this.#suspended || !this.#online;
  }

  #soonDelayMs(): number {
    return this.#timing.soonDelayMs * (0.5 + this.#options.random());
  }

  #now(): number {
    return this.#options.clock.now();
  }

  /** A time as ms on the injected clock, never later than now; null if missing or unreadable. */
  #parseTime(iso: string | null): number | null {
    const at = iso === null ? NaN : Date.parse(iso);
    return Number.isFinite(at) ? Math.min(at, this.#now()) : null;
  }

  #reportError(error: unknown): void {
    try {
      this.#options.onError?.(error);
    } catch {
      // A failing error reporter must not stop the checks either.
    }
  }
}
