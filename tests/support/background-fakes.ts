import type { AppSettings, AppStatus, Panel, PanelCheck } from '../../shared/types.ts';
import type { AppSettingsPatch } from '../../shared/schemas/schemas.ts';
import { DEFAULT_SETTINGS } from '../../electron/core/storage/app-settings.ts';
import type { SystemEvent, SystemState } from '../../electron/core/schedule/check-scheduler.ts';
import type { PanelEvent } from '../../shared/contract/events.ts';
import { BackgroundWork } from '../../electron/main/background-work.ts';
import { FakeClock } from './fake-clock.ts';
import { samplePanel } from './panel-fixture.ts';

/** Fakes for the tests of main's background wiring: panels, sleep and network, a recording core. */

export const SECOND = 1_000;
export const MINUTE = 60 * SECOND;
export const T0 = Date.UTC(2030, 0, 1, 12, 0, 0);
export const iso = (ms: number) => new Date(ms).toISOString();

/** Signed in, as most panels of these tests are. */
export function panel(n: number, change: Partial<Panel> = {}): Panel {
  return samplePanel(n, { createdAt: iso(T0 - MINUTE), signedIn: true, tokenStorage: 'keyring', ...change });
}

export function fakeSystem(): SystemState & { emit(event: SystemEvent): void; online: boolean } {
  const listeners = new Set<(event: SystemEvent) => void>();
  const system = {
    online: true,
    isOnline: () => system.online,
    onChange: (listener: (event: SystemEvent) => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    emit: (event: SystemEvent) => {
      for (const listener of listeners) listener(event);
    },
  };
  return system;
}

export function setUp(panels: Panel[], settings: Partial<AppSettings> = {}) {
  const clock = new FakeClock(T0);
  const current: AppSettings = { ...DEFAULT_SETTINGS, ...settings };
  const log = {
    window: [] as PanelEvent[],
    shown: 0,
    checks: [] as { ids: string[] | undefined; at: number }[],
    cancels: 0,
    flushes: 0,
    notices: [] as { title: string; body: string; onClick: () => void }[],
    errors: [] as unknown[],
  };
  let failWith: PanelCheck['ok'] | 'UNAUTHORIZED' = true;
  // The core's notifications, as the core gives them: after a settings change made, after each checkPanels call.
  const settingsListeners = new Set<(settings: AppSettings) => void>();
  const checkListeners = new Set<(checks: readonly PanelCheck[]) => void>();
  const subscribe =
    <T>(listeners: Set<(value: T) => void>) =>
    (listener: (value: T) => void) => {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    };
  const core = {
    listPanels: async () => panels,
    currentSettings: async () => ({ ...current }),
    checkPanels: async (ids?: string[]): Promise<PanelCheck[]> => {
      log.checks.push({ ids, at: clock.now() });
      const checks: PanelCheck[] = (ids ?? panels.map((one) => one.id)).map((panelId) =>
        failWith === true
          ? { panelId, checkedAt: iso(clock.now()), ok: true }
          : { panelId, checkedAt: iso(clock.now()), ok: false, error: { code: 'UNAUTHORIZED', message: 'expired' } },
      );
      for (const listener of checkListeners) listener(checks);
      return checks;
    },
    cancelChecks: async () => {
      log.cancels++;
    },
    flush: async () => {
      log.flushes++;
    },
    updateSettings: async (patch: AppSettingsPatch): Promise<AppStatus> => {
      Object.assign(current, patch);
      const status: AppStatus = { settings: { ...current }, tokenProtection: { level: 'keyring', backend: 'test' }, startupProblems: [] };
      for (const listener of settingsListeners) listener(status.settings);
      return status;
    },
    onSettingsChanged: subscribe(settingsListeners),
    onPanelsChecked: subscribe(checkListeners),
  };
  const system = fakeSystem();
  const work = new BackgroundWork({
    toWindow: (event) => log.window.push(event),
    showWindow: () => log.shown++,
    system,
    notifier: { notify: (notice) => log.notices.push(notice) },
    clock,
    // 0.5: no jitter, "soon" is exactly 5 s, the first pass exactly 10 s after start.
    random: () => 0.5,
    onError: (error) => log.errors.push(error),
  });
  return { clock, work, core, log, system, setFailure: (value: typeof failWith) => (failWith = value) };
}

export const checkedIds = (log: { checks: { ids: string[] | undefined }[] }) => log.checks.map((check) => check.ids);
