import type { PanelEvent } from '../../shared/contract/events.ts';
import { type SchedulerClock, describeError, type Log, type LogFields } from '../core/index.ts';

/** What the update checks are told by the updater while it works. */
export interface UpdaterEvents {
  /** The release feed has a newer version than this app. */
  available: (version: string) => void;
  /** That version is downloaded and verified: it installs at quit, or now with `quitAndInstall`. */
  downloaded: (version: string) => void;
  /** Something failed; a failed `check` or `download` also rejects, with the same error. */
  error: (error: unknown) => void;
}

/** The part of an auto-updater Paneldeck uses (the app: electron-updater's, in `electron-updater.ts`). */
export interface Updater {
  /** Asks the release feed for a newer version; `available` fires before it resolves when there is one. */
  check(): Promise<void>;
  /** Downloads the version `check` found, in the background. */
  download(): Promise<void>;
  /** Quits the app, installs the downloaded version and starts it again. */
  quitAndInstall(): void;
  /** Called once, before the first check. */
  listen(listeners: UpdaterEvents): void;
}

export interface UpdateChecksOptions {
  /** `app.isPackaged`: a development or test run never checks, nor even loads the updater. */
  packaged: boolean;
  /** Loads the updater; called at a check until it succeeds, never when not packaged. */
  createUpdater: () => Promise<Updater>;
  clock: SchedulerClock;
  log: Log;
  /** Sends an event to the app's main window (and nowhere else). */
  toWindow: (event: PanelEvent) => void;
  /** From `start` to the first check. Default 30 s: the window and the first panel checks come first. */
  firstCheckDelayMs?: number;
  /** Between checks. Default a day. */
  intervalMs?: number;
}

const DEFAULT_FIRST_CHECK_DELAY_MS = 30_000;
const DEFAULT_INTERVAL_MS = 24 * 60 * 60 * 1000;

/**
 * When Paneldeck looks for a newer release, and what it does with one: a check a little after
 * start and then daily, a download in the background, and the window told once that it is ready.
 * It never restarts the app itself: the operator does from the window's notice (`install`), or
 * the updater installs it at the next quit. Failures are logged and the next daily check retries.
 */
export class UpdateChecks {
  readonly #options: UpdateChecksOptions;
  #updater: Updater | null = null;
  #timer: unknown = null;
  /** A check, or the download it started, is under way. */
  #busy = false;
  /** The version found by the check under way, to download once that check ends. */
  #found: string | null = null;
  #ready: string | null = null;
  #stopped = false;
  /** Errors already logged from the updater's `error` event, not to be logged again as a rejection. */
  readonly #logged = new WeakSet<object>();

  constructor(options: UpdateChecksOptions) {
    this.#options = options;
  }

  /** The downloaded version waiting to be installed, or null. */
  get readyVersion(): string | null {
    return this.#ready;
  }

  /** Plans the first check. Does nothing at all when the app is not packaged. */
  start(): void {
    if (!this.#options.packaged || this.#stopped || this.#timer !== null) return;
    this.#schedule(this.#options.firstCheckDelayMs ?? DEFAULT_FIRST_CHECK_DELAY_MS);
  }

  /** At quit: no more checks. A downloaded update still installs then (the updater's own quit hook). */
  stop(): void {
    this.#stopped = true;
    if (this.#timer !== null) this.#options.clock.clearTimeout(this.#timer);
    this.#timer = null;
  }

  /** The operator's "Restart now". False, and nothing happens, when no update is downloaded. */
  install(): boolean {
    if (this.#ready === null || !this.#updater) return false;
    this.#options.log.info('update.install', { version: this.#ready });
    this.#updater.quitAndInstall();
    return true;
  }

  #schedule(ms: number): void {
    this.#timer = this.#options.clock.setTimeout(() => {
      this.#timer = null;
      void this.#tick();
    }, ms);
  }

  async #tick(): Promise<void> {
    // The next check is planned first, so a check that fails or hangs never ends the daily ones.
    if (this.#stopped || this.#ready !== null) return;
    this.#schedule(this.#options.intervalMs ?? DEFAULT_INTERVAL_MS);
    if (this.#busy) {
      this.#options.log.info('update.check-skipped', { reason: 'busy' });
      return;
    }
    this.#busy = true;
    try {
      await this.#checkAndDownload();
    } finally {
      this.#busy = false;
    }
  }

  async #checkAndDownload(): Promise<void> {
    const { log } = this.#options;
    let step = 'load';
    try {
      const updater = await this.#loadUpdater();
      step = 'check';
      this.#found = null;
      log.info('update.check');
      await updater.check();
      const found = this.#takeFound();
      if (found === null || this.#stopped) return;
      step = 'download';
      log.info('update.download', { version: found });
      await updater.download();
    } catch (error) {
      // Offline, no release yet, a bad signature: worth a line in the log, never a dialog.
      if (typeof error === 'object' && error !== null && this.#logged.has(error)) return;
      log.warn(`update.${step}-failed`, failureFields(error));
    }
  }

  #takeFound(): string | null {
    const found = this.#found;
    this.#found = null;
    return found;
  }

  async #loadUpdater(): Promise<Updater> {
    if (this.#updater) return this.#updater;
    const updater = await this.#options.createUpdater();
    updater.listen({
      available: (version) => {
        if (this.#busy) this.#found = version;
      },
      downloaded: (version) => this.#downloaded(version),
      error: (error) => {
        if (typeof error === 'object' && error !== null) this.#logged.add(error);
        this.#options.log.warn('update.error', failureFields(error));
      },
    });
    this.#updater = updater;
    return updater;
  }

  #downloaded(version: string): void {
    if (this.#ready !== null) return;
    this.#ready = version;
    // Nothing to check for until this one is installed, at the restart.
    if (this.#timer !== null) this.#options.clock.clearTimeout(this.#timer);
    this.#timer = null;
    this.#options.log.info('update.ready', { version });
    try {
      this.#options.toWindow({ type: 'updateReady', version });
    } catch (error) {
      this.#options.log.warn('update.notice-failed', { error: describeError(error) });
    }
  }
}

/**
 * What failed, without the message (see `describeError`): the codes say enough, electron-updater's
 * `ERR_UPDATER_...` (no release, bad signature) and the HTTP status of the release feed.
 */
function failureFields(error: unknown): LogFields {
  const { code, statusCode } = (typeof error === 'object' && error !== null ? error : {}) as { code?: unknown; statusCode?: unknown };
  return {
    error: describeError(error),
    ...(typeof code === 'string' && { code: code.slice(0, 100) }),
    ...(typeof statusCode === 'number' && { statusCode }),
  };
}
