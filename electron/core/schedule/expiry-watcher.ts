/**
 * Warns the operator a set time before a panel's session ends, and has the panel checked again
 * once it has ended. One timer serves the whole fleet: each panel puts at most two steps (warn,
 * recheck) in a min-heap, and the timer waits for the earliest. A change pushes new steps and
 * leaves the old ones to be skipped when they surface, so it costs O(log n), and a wake-up
 * O(k log n) for the k steps due.
 */

import { untilText } from '../../../shared/durations.ts';
import type { Panel } from '../../../shared/types.ts';

export interface ExpiryNotifier {
  /** Shows a system notification; `onClick` runs when the operator clicks it. */
  notify(notice: { title: string; body: string; onClick: () => void }): void;
}

export interface ExpiryClock {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface ExpiryWatcherOptions {
  clock: ExpiryClock;
  /** Read on every plan and wake-up, so a change is seen even if `settingsChanged` is not called. */
  settings: () => { expiryWarningMinutes: number; notifyBeforeExpiry: boolean };
  notifier: ExpiryNotifier;
  /** Tells the window (the `sessionExpiring` event). */
  emitExpiring(panelId: string, expiresAt: string): void;
  /** The operator clicked the notification: the window focuses that panel (the `focusPanel` event). */
  focusPanel(panelId: string): void;
  /**
   * The session has ended: check the panel again (its read will say it expired). The app asks
   * the check scheduler, which keeps its interval and back-off (CheckScheduler.takeEarlyChecks).
   */
  recheck(panelIds: string[]): void;
  /** Gets what a callback threw; the watcher carries on regardless. */
  onError?: (error: unknown) => void;
  /** The end time as the notification shows it; default the operator's locale, hours and minutes. */
  formatTime?: (epochMs: number) => string;
  /** How long after the end the recheck waits, so a panel whose clock runs late has ended too. */
  graceMs?: number;
}

/** What the watcher needs of a panel; `name` is for the notification text, `lastCheck` says when the expiry was read. */
export type WatchedPanel = Pick<Panel, 'id' | 'name' | 'signedIn' | 'sessionExpiresAt'> & Partial<Pick<Panel, 'lastCheck'>>;

const MINUTE_MS = 60_000;
export const DEFAULT_GRACE_MS = 5_000;
/** Node runs a timer of more than 2^31−1 ms at once, so long waits are taken in steps of at most a day. */
export const MAX_TIMER_DELAY_MS = 24 * 60 * MINUTE_MS;

interface PanelState {
  readonly id: string;
  name: string;
  readonly expiresAt: string;
  readonly expiresMs: number;
  warned: boolean;
  rechecked: boolean;
}

/** A planned step; it is stale once its panel's state is replaced or forgotten, or the step is done. */
interface Action {
  readonly at: number;
  readonly kind: 'warn' | 'recheck';
  readonly state: PanelState;
}

export class ExpiryWatcher {
  readonly #options: ExpiryWatcherOptions;
  readonly #graceMs: number;
  readonly #panels = new Map<string, PanelState>();
  #heap: Action[] = [];
  #timer: { handle: unknown; at: number } | null = null;
  #settings = { warningMs: 0, notify: false };
  /** The warning time the planned actions were worked out with. */
  #warningMs: number;
  #stopped = false;

  constructor(options: ExpiryWatcherOptions) {
    this.#options = options;
    this.#graceMs = Math.max(0, options.graceMs ?? DEFAULT_GRACE_MS);
    this.#warningMs = this.#readSettings().warningMs;
  }

  /** The whole list, e.g. at start: panels not in it are forgotten, the others taken as `panelChanged`. */
  setPanels(panels: readonly WatchedPanel[]): void {
    if (this.#stopped) return;
    const listed = new Set(panels.map((panel) => panel.id));
    for (const id of this.#panels.keys()) if (!listed.has(id)) this.#panels.delete(id);
    for (const panel of panels) this.#apply(panel);
    this.#replan();
  }

  panelChanged(panel: WatchedPanel): void {
    if (this.#stopped) return;
    this.#apply(panel);
    this.#replan();
  }

  /** Its planned steps stay in the heap and are skipped when they surface. */
  panelRemoved(id: string): void {
    if (this.#stopped) return;
    this.#panels.delete(id);
    this.#replan();
  }

  settingsChanged(): void {
    if (this.#stopped) return;
    this.#replan();
  }

  /** Final: clears the timer and forgets every panel; later calls do nothing. */
  stop(): void {
    this.#stopped = true;
    this.#clearTimer();
    this.#panels.clear();
    this.#heap = [];
  }

  #apply(input: WatchedPanel): void {
    const text = input.signedIn ? input.sessionExpiresAt : null;
    const expiresMs = text === null ? Number.NaN : Date.parse(text);
    if (text === null || !Number.isFinite(expiresMs)) {
      this.#panels.delete(input.id);
      return;
    }
    const known = this.#panels.get(input.id);
    // The same instant again (even spelt differently) is the same session: no second warning.
    if (known?.expiresMs === expiresMs) {
      known.name = input.name;
      return;
    }
    const now = this.#options.clock.now();
    const readAt = input.lastCheck ? Date.parse(input.lastCheck.at) : Number.NaN;
    // One warning per sign-in and end: an end that moved later by less than the warning time since
    // the last answer (a sliding session, a panel whose clock runs late) is the one warned about.
    const stillWarned = known?.warned === true && expiresMs <= known.expiresMs + this.#warningMs;
    const state: PanelState = {
      id: input.id,
      name: input.name,
      expiresAt: text,
      expiresMs,
      warned: stillWarned,
      // Read at or after the moment it names, the session was still there: the panel's clock or
      // its sliding session says nothing about when to read it again, so the schedule decides
      // (reading again at once, each answer naming another past moment, made a loop).
      rechecked: Number.isFinite(readAt) && readAt >= expiresMs,
    };
    this.#panels.set(input.id, state);
    this.#plan(state, now);
  }

  #plan(state: PanelState, now: number): void {
    // Known only after it ended (e.g. at start): no warning, just the recheck, at once.
    if (!state.warned && this.#warningMs > 0 && state.expiresMs > now) {
      this.#push({ at: state.expiresMs - this.#warningMs, kind: 'warn', state });
    }
    // Up to the next whole second, so sessions ending within the same second share one call.
    if (!state.rechecked) this.#push({ at: Math.ceil(state.expiresMs / 1000) * 1000 + this.#graceMs, kind: 'recheck', state });
  }

  /**
   * Re-plans everything (O(n)) when the warning time changed or churn has left the heap mostly
   * stale (over twice the two-steps-per-panel bound); then sets the timer for the earliest step.
   */
  #replan(): void {
    const { warningMs } = this.#readSettings();
    if (warningMs !== this.#warningMs || this.#heap.length > 4 * this.#panels.size + 1024) {
      this.#warningMs = warningMs;
      this.#heap = [];
      const now = this.#options.clock.now();
      for (const state of this.#panels.values()) this.#plan(state, now);
    }
    this.#arm();
  }

  #wake(): void {
    this.#timer = null;
    this.#guard(() => {
      const { warningMs, notify } = this.#readSettings();
      // Settings changed without a `settingsChanged`: plan with them before acting.
      if (warningMs !== this.#warningMs) return;
      const now = this.#options.clock.now();
      const warn: PanelState[] = [];
      const recheck: string[] = [];
      for (let next = this.#peekLive(); next && next.at <= now; next = this.#peekLive()) {
        this.#pop();
        if (next.kind === 'recheck') {
          next.state.rechecked = true;
          recheck.push(next.state.id);
        } else {
          next.state.warned = true;
          // A late wake (the machine slept) past the end: the recheck says it, a warning would not help.
          if (now < next.state.expiresMs) warn.push(next.state);
        }
      }
      // Callbacks run once the heap is settled, so one that calls back in (panelChanged) is safe.
      for (const state of warn) if (!this.#stopped) this.#warn(state, now, notify);
      if (recheck.length > 0 && !this.#stopped) this.#guard(() => this.#options.recheck(recheck));
    });
    if (!this.#stopped) this.#replan();
  }

  #warn(state: PanelState, now: number, notify: boolean): void {
    const { id, expiresAt, expiresMs } = state;
    this.#guard(() => this.#options.emitExpiring(id, expiresAt));
    if (!notify) return;
    const format = this.#options.formatTime ?? defaultFormatTime;
    const name = state.name.trim() || id;
    this.#guard(() =>
      this.#options.notifier.notify({
        title: `Session ending: ${name}`,
        body: `The session ends at ${format(expiresMs)} (${untilText(expiresMs, now)}). Log in again to keep working.`,
        onClick: () => this.#guard(() => this.#options.focusPanel(id)),
      }),
    );
  }

  #arm(): void {
    if (this.#stopped) return;
    const next = this.#peekLive();
    if (!next) return this.#clearTimer();
    const now = this.#options.clock.now();
    const at = Math.min(Math.max(next.at, now), now + MAX_TIMER_DELAY_MS);
    if (this.#timer?.at === at) return;
    this.#clearTimer();
    // A capped wait wakes with nothing due and just sets the next step.
    this.#timer = { handle: this.#options.clock.setTimeout(() => this.#wake(), at - now), at };
  }

  #clearTimer(): void {
    if (this.#timer) this.#options.clock.clearTimeout(this.#timer.handle);
    this.#timer = null;
  }

  /** The earliest step still wanted, dropping stale ones off the top. */
  #peekLive(): Action | null {
    for (let top = this.#heap[0]; top; top = this.#heap[0]) {
      const { state, kind } = top;
      const done = kind === 'warn' ? state.warned : state.rechecked;
      if (this.#panels.get(state.id) === state && !done) return top;
      this.#pop();
    }
    return null;
  }

  /** Settings that cannot be read leave the last ones that could in force (a throw must not spin the timer). */
  #readSettings(): { warningMs: number; notify: boolean } {
    this.#guard(() => {
      const { expiryWarningMinutes: minutes, notifyBeforeExpiry } = this.#options.settings();
      this.#settings = {
        warningMs: Number.isFinite(minutes) && minutes > 0 ? minutes * MINUTE_MS : 0,
        notify: notifyBeforeExpiry === true,
      };
    });
    return this.#settings;
  }

  /** Runs a callback; what it throws goes to `onError` (itself guarded), never out of a timer. */
  #guard(run: () => void): void {
    try {
      run();
    } catch (error) {
      try {
        this.#options.onError?.(error);
      } catch {} // An error sink that fails is no reason to stop watching.
    }
  }

  #push(action: Action): void {
    const heap = this.#heap;
    heap.push(action);
    for (let i = heap.length - 1, up = (i - 1) >> 1; i > 0 && heap[i]!.at < heap[up]!.at; i = up, up = (i - 1) >> 1) {
      [heap[i], heap[up]] = [heap[up]!, heap[i]!];
    }
  }

  #pop(): void {
    const heap = this.#heap;
    const last = heap.pop();
    if (!last || heap.length === 0) return;
    heap[0] = last;
    for (let i = 0, least = 0; ; i = least) {
      for (const child of [2 * i + 1, 2 * i + 2]) if (child < heap.length && heap[child]!.at < heap[least]!.at) least = child;
      if (least === i) return;
      [heap[i], heap[least]] = [heap[least]!, heap[i]!];
    }
  }
}

function defaultFormatTime(epochMs: number): string {
  return new Date(epochMs).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
}
