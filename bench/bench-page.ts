/**
 * What the benches that drive the built renderer put in the page (services-tab.ts, build-log.ts):
 * a stand-in for Electron that the real preload bundle is wrapped with (`window.__benchElectron`),
 * answering each IPC channel from the bench's own `window.__benchAnswers`, and the page's long
 * tasks. Page functions: Playwright serialises them, so they use nothing from this module but types.
 */

export interface BenchProbe {
  /** Long tasks (the Long Tasks API reports those over 50 ms). */
  tasks: { start: number; duration: number }[];
  /** Stretches left out of the longest tasks: the copies standing in for IPC's, which are main's and the bridge's work. */
  skips: { start: number; end: number }[];
}

export type BenchAnswers = Record<string, (args: unknown[]) => Promise<unknown>>;
export type BenchWindow = Window & { __benchAnswers: BenchAnswers; __benchProbe: BenchProbe; __benchElectron: unknown };

/** In the page, before its scripts: records long tasks, and answers `ipcRenderer.invoke` from `window.__benchAnswers`. */
export function installBenchElectron(): void {
  const page = window as unknown as BenchWindow;
  const probe: BenchProbe = { tasks: [], skips: [] };
  Object.defineProperty(page, '__benchProbe', { value: probe });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) probe.tasks.push({ start: entry.startTime, duration: entry.duration });
  }).observe({ type: 'longtask', buffered: true });
  Object.defineProperty(page, '__benchElectron', {
    value: {
      contextBridge: { exposeInMainWorld: (key: string, api: unknown) => Object.defineProperty(page, key, { value: api }) },
      ipcRenderer: {
        invoke: async (channel: string, ...args: unknown[]) => {
          const answer = page.__benchAnswers[channel];
          if (!answer) return { ok: false, error: { code: 'INTERNAL', message: `The bench does not answer ${channel}.` } };
          return { ok: true, value: await answer(args) };
        },
        on() {
          return this;
        },
        removeListener() {
          return this;
        },
      },
    },
  });
}

/** In the page: the longest task overlapping [from, to] but those overlapping a skipped stretch; 0 for none over 50 ms. */
export function longestTask({ from, to }: { from: number; to: number }): number {
  const { tasks, skips } = (window as unknown as BenchWindow).__benchProbe;
  const overlaps = (start: number, end: number, a: number, b: number) => start < b && end > a;
  return Math.max(
    0,
    ...tasks
      .filter((task) => overlaps(task.start, task.start + task.duration, from, to))
      .filter((task) => !skips.some((skip) => overlaps(task.start, task.start + task.duration, skip.start, skip.end)))
      .map((task) => task.duration),
  );
}
