import type { SystemEvent, SystemState } from '../core/index.ts';

/** The part of Electron's `powerMonitor` read here. */
export interface PowerEvents {
  on(event: 'suspend' | 'resume', listener: () => void): unknown;
  removeListener(event: 'suspend' | 'resume', listener: () => void): unknown;
}

/** The part of Electron's `net` read here. */
export interface OnlineProbe {
  isOnline(): boolean;
}

export interface PollTimer {
  setInterval(run: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

/** How often the network is looked at: Electron's main process has no event for it coming or going. */
export const ONLINE_POLL_MS = 30_000;

const realTimer: PollTimer = {
  // Unref'd: the poll is no reason to keep a process alive.
  setInterval: (run, ms) => setInterval(run, ms).unref(),
  clearInterval: (handle) => clearInterval(handle as NodeJS.Timeout),
};

/**
 * Sleep and network state for the check scheduler: `suspend` and `resume` from the power monitor,
 * `online` and `offline` from polling `net.isOnline()`, each said only when it changes.
 */
export function electronSystemState(
  power: PowerEvents,
  net: OnlineProbe,
  options: { pollMs?: number; timer?: PollTimer } = {},
): SystemState {
  const pollMs = options.pollMs ?? ONLINE_POLL_MS;
  const timer = options.timer ?? realTimer;
  return {
    isOnline: () => net.isOnline(),
    onChange(listener: (event: SystemEvent) => void): () => void {
      let online = net.isOnline();
      const onSuspend = () => listener('suspend');
      const onResume = () => {
        // The scheduler reads the network itself on resume; the poll starts from what it sees too.
        online = net.isOnline();
        listener('resume');
      };
      const poll = () => {
        const now = net.isOnline();
        if (now === online) return;
        online = now;
        listener(now ? 'online' : 'offline');
      };
      power.on('suspend', onSuspend);
      power.on('resume', onResume);
      const handle = timer.setInterval(poll, pollMs);
      let subscribed = true;
      return () => {
        if (!subscribed) return;
        subscribed = false;
        power.removeListener('suspend', onSuspend);
        power.removeListener('resume', onResume);
        timer.clearInterval(handle);
      };
    },
  };
}
