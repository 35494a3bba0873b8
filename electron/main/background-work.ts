import type { Alert } from '../../shared/alerts.ts';
import type { PanelEvent } from '../../shared/contract/events.ts';
import type { AppSettings, Panel, PanelCheck } from '../../shared/types.ts';
import { DEFAULT_SETTINGS } from '../../shared/settings.ts';
import {
  CheckScheduler,
  type CheckSchedulerTiming,
  type SchedulerClock,
  type SystemState,
  ExpiryWatcher,
  type ExpiryNotifier,
  DailyReads,
  type DailyReadsTiming,
  type Core,
} from '../core/index.ts';
import { holdQuitFor, type QuitEvent } from './quit-hold.ts';

/** What the background needs of the core: its checks and settings, and its notifications of a settings change and of checks someone started. */
export type BackgroundCore = Pick<
  Core,
  'listPanels' | 'checkPanels' | 'cancelChecks' | 'currentSettings' | 'flush' | 'onSettingsChanged' | 'onPanelsChecked'
> &
  /** Where the session ends the watcher warns of are recorded as alerts; without it they are not. */
  Partial<Pick<Core, 'sessionEnding'>> &
  /** The fleet's daily reads (their alerts are raised from them); without them they are read only when their views open. */
  Partial<Pick<Core, 'listBackups' | 'listCertificates'>>;

export interface BackgroundWorkOptions {
  /** Sends an event to the app's main window (and nowhere else); dropped when there is none. */
  toWindow(event: PanelEvent): void;
  /** Brings the main window to the front, opening one if there is none. */
  showWindow(): void;
  system: SystemState;
  notifier: ExpiryNotifier;
  /** Epoch milliseconds: session ends and check times are compared with it. Default: the real clock. */
  clock?: SchedulerClock;
  random?: () => number;
  /** Gets what failed in the background; nothing there is worth stopping the app for. */
  onError?: (error: unknown) => void;
  timing?: Partial<CheckSchedulerTiming>;
  dailyTiming?: Partial<DailyReadsTiming>;
  /** How long a quit waits for `stop()` (the check history to be written) at most. */
  quitTimeoutMs?: number;
}

export const realClock: SchedulerClock = {
  now: () => Date.now(),
  // Unref'd like the core's own timers: background work must never be what keeps a process alive.
  setTimeout: (run, ms) => setTimeout(run, ms).unref(),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

type Settings = Pick<AppSettings, 'checkIntervalMinutes' | 'expiryWarningMinutes' | 'notifyBeforeExpiry' | AlertNotifySetting>;

type AlertNotifySetting = 'notifyServiceDown' | 'notifyDiskFull' | 'notifyUnreachable';

/** The setting that turns each alert's notification on; the session's end has the expiry watcher's own. */
const ALERT_NOTIFY: Readonly<Record<Exclude<Alert['kind'], 'sessionEnding'>, AlertNotifySetting>> = {
  serviceDown: 'notifyServiceDown',
  diskFull: 'notifyDiskFull',
  unreachable: 'notifyUnreachable',
  // A changed certificate and a web page in place of the API are a panel not answering as itself: one switch for the three.
  certificateChanged: 'notifyUnreachable',
  badAnswer: 'notifyUnreachable',
  // A panel not back after its update is a panel not answering as it should.
  upgradeNotBack: 'notifyUnreachable',
  // A service's backups are the service's health: the services switch.
  backupFailed: 'notifyServiceDown',
  noBackup: 'notifyServiceDown',
  // So are the certificates of its websites.
  certificateExpiring: 'notifyServiceDown',
  certificateFailed: 'notifyServiceDown',
};

/**
 * Main's background work around the core: the check scheduler and the expiry watcher, fed by
 * the core's own events, and those events passed on to the window. The core is created with
 * `emit` as its event sink; `start(core)` then reads the settings and the list and starts.
 */
export class BackgroundWork {
  readonly #options: BackgroundWorkOptions;
  readonly #scheduler: CheckScheduler;
  readonly #watcher: ExpiryWatcher;
  /** Read synchronously by the scheduler and the watcher; kept current by `settingsChanged`. */
  #settings: Settings = DEFAULT_SETTINGS;
  #core: BackgroundCore | null = null;
  #dailyReads: DailyReads | null = null;
  /** Events reach the scheduler and the watcher only once they have the whole list. */
  #started = false;
  #stopping: Promise<void> | null = null;
  #unsubscribe: (() => void)[] = [];
  /** The scheduler's own pass under way, once its results are marked as its own (`#ownResults`). */
  #ownPass: Promise<void> | null = null;
  /** The results of the scheduler's own passes: it applies them itself, by its rules for a pass. */
  readonly #ownResults = new WeakSet<PanelCheck>();

  constructor(options: BackgroundWorkOptions) {
    this.#options = options;
    const clock = options.clock ?? realClock;
    const onError = (error: unknown) => this.#report(error);
    this.#scheduler = new CheckScheduler({
      clock,
      random: options.random ?? Math.random,
      check: (ids) => this.#passCheck(ids),
      cancel: () => void this.#requireCore().cancelChecks().catch(onError),
      system: options.system,
      settings: () => this.#settings,
      onError,
      timing: options.timing,
    });
    this.#watcher = new ExpiryWatcher({
      clock,
      settings: () => this.#settings,
      notifier: options.notifier,
      emitExpiring: (panelId, expiresAt) => {
        this.#toWindow({ type: 'sessionExpiring', panelId, expiresAt });
        // The alert list records it too; its notification is the watcher's own.
        void this.#core?.sessionEnding?.(panelId, expiresAt).catch(onError);
      },
      focusPanel: (panelId) => this.#focus(panelId, 'session'),
      recheck: (panelIds) => {
        const due = this.#scheduler.takeEarlyChecks(panelIds);
        // Its results come back through the core's notice of checks (`#checked`), as the operator's do.
        if (due.length > 0) void this.#requireCore().checkPanels(due).catch(onError);
      },
      onError,
    });
  }

  /** The core's event sink: every event goes to the window, and what concerns them to the scheduler and the watcher. */
  readonly emit = (event: PanelEvent): void => {
    this.#toWindow(event);
    if (!this.#started || this.#stopping) return;
    try {
      if (event.type === 'alertRaised') this.#notify(event.alert);
      if (event.type === 'panelsChanged') {
        for (const panel of event.panels) {
          this.#scheduler.panelChanged(scheduled(panel));
          this.#watcher.panelChanged(panel);
        }
      } else if (event.type === 'panelsRemoved') {
        for (const id of event.panelIds) {
          this.#scheduler.panelRemoved(id);
          this.#watcher.panelRemoved(id);
        }
      }
    } catch (error) {
      this.#report(error);
    }
  };

  /**
   * Reads the settings and the panel list, then starts the checks. From then on it hears of each
   * settings change (the schedule and the warnings follow at once) and of checks someone else
   * started ("Check all": they count as the panels' last checks). Failures go to `onError`.
   */
  async start(core: BackgroundCore): Promise<void> {
    if (this.#core) return;
    this.#core = core;
    this.#unsubscribe = [
      core.onSettingsChanged((settings) => this.settingsChanged(settings)),
      core.onPanelsChecked((checks) => this.#checked(checks)),
    ];
    try {
      this.#settings = await core.currentSettings();
      const panels = await core.listPanels();
      if (this.#stopping) return;
      this.#scheduler.setPanels(panels.map(scheduled));
      this.#watcher.setPanels(panels);
      this.#started = true;
      this.#scheduler.start();
      this.#startDailyReads(core);
    } catch (error) {
      this.#report(error);
    }
  }

  settingsChanged(settings: Settings): void {
    const { checkIntervalMinutes, expiryWarningMinutes, notifyBeforeExpiry, notifyServiceDown, notifyDiskFull, notifyUnreachable } =
      settings;
    this.#settings = {
      checkIntervalMinutes,
      expiryWarningMinutes,
      notifyBeforeExpiry,
      notifyServiceDown,
      notifyDiskFull,
      notifyUnreachable,
    };
    if (!this.#started || this.#stopping) return;
    this.#scheduler.settingsChanged();
    this.#watcher.settingsChanged();
  }

  /** At quit: no more checks or warnings, and what the core holds back (check history) is written. */
  stop(): Promise<void> {
    this.#stopping ??= (async () => {
      for (const unsubscribe of this.#unsubscribe) unsubscribe();
      this.#scheduler.stop();
      this.#watcher.stop();
      this.#dailyReads?.stop();
      try {
        await this.#core?.flush();
      } catch (error) {
        this.#report(error);
      }
    })();
    return this.#stopping;
  }

  /**
   * For the app's `before-quit`: the first one is held until `stop()` is done (or a few seconds
   * passed), then `quit` is called again and let through.
   */
  beforeQuit(quit: () => void): (event: QuitEvent) => void {
    return holdQuitFor(() => this.stop(), quit, this.#options.quitTimeoutMs ?? 3000);
  }

  /** The backups and the certificates, each read once a day in the background: their alerts need no view open. */
  #startDailyReads(core: BackgroundCore): void {
    const { listBackups, listCertificates } = core;
    const reads = [listBackups && (() => listBackups()), listCertificates && (() => listCertificates())].filter(
      (read) => read !== undefined,
    );
    if (reads.length === 0) return;
    this.#dailyReads = new DailyReads({
      clock: this.#options.clock ?? realClock,
      system: this.#options.system,
      settings: () => this.#settings,
      reads,
      onError: (error) => this.#report(error),
      timing: this.#options.dailyTiming,
    });
    this.#dailyReads.start();
  }

  /** The scheduler's own pass: its results are marked as its own before anything else hears of them. */
  #passCheck(ids: string[]): Promise<PanelCheck[]> {
    const call = this.#requireCore().checkPanels(ids);
    const marked = call.then(
      (results) => {
        for (const result of results) this.#ownResults.add(result);
      },
      () => undefined,
    );
    this.#ownPass = marked;
    void marked.then(() => {
      if (this.#ownPass === marked) this.#ownPass = null;
    });
    return call;
  }

  /**
   * The core's notice of a `checkPanels` call: checks someone else started count as the panels'
   * last checks. Heard while the scheduler's own pass is under way, it waits until that pass is
   * marked, so that the pass's own results (a call that joined it shares them) are left to the pass.
   */
  #checked(checks: readonly PanelCheck[]): void {
    const record = () => {
      // A cancelled read says nothing about the panel.
      const outcomes = checks.filter((result) => !this.#ownResults.has(result) && (result.ok || result.error.code !== 'CANCELLED'));
      if (!this.#started || this.#stopping) return;
      try {
        this.#scheduler.recordResults(outcomes);
      } catch (error) {
        this.#report(error);
      }
    };
    if (this.#ownPass) void this.#ownPass.then(record);
    else record();
  }

  /** A system notification for the alert, unless the operator turned its kind off; a click opens the panel at the alert's tab. */
  #notify(alert: Alert): void {
    if (alert.kind === 'sessionEnding' || !this.#settings[ALERT_NOTIFY[alert.kind]]) return;
    const { panelId, message, tab } = alert;
    this.#options.notifier.notify({
      // The message names what and where once ("shop/web on acme-prod-05 is down."): in the title, plain text
      // everywhere, as some servers read the body as markup.
      title: message,
      body: 'Click to open the panel in Paneldeck.',
      onClick: () => this.#focus(panelId, tab),
    });
  }

  #focus(panelId: string, tab: Alert['tab']): void {
    try {
      this.#options.showWindow();
    } catch (error) {
      this.#report(error);
    }
    this.#toWindow({ type: 'focusPanel', panelId, tab });
  }

  #requireCore(): BackgroundCore {
    if (!this.#core) throw new Error('The background work was used before it was started.');
    return this.#core;
  }

  #toWindow(event: PanelEvent): void {
    try {
      this.#options.toWindow(event);
    } catch (error) {
      this.#report(error);
    }
  }

  #report(error: unknown): void {
    try {
      this.#options.onError?.(error);
    } catch {
      // An error sink that fails is no reason to stop the background work.
    }
  }
}

function scheduled(panel: Panel): { id: string; signedIn: boolean; lastCheckAt: string | null } {
  return { id: panel.id, signedIn: panel.signedIn, lastCheckAt: panel.lastCheck?.at ?? null };
}
