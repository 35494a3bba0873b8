/** The part of Electron's quit events ('before-quit', 'will-quit') used here. */
export interface QuitEvent {
  preventDefault(): void;
}

/**
 * A handler for one of the app's quit events that holds the first one until `work` is done (or
 * `timeoutMs` passed: a disk that hangs must not keep the app from quitting), then calls `quit`
 * again and lets that one through.
 */
export function holdQuitFor(work: () => Promise<void>, quit: () => void, timeoutMs: number): (event: QuitEvent) => void {
  let phase: 'running' | 'stopping' | 'done' = 'running';
  return (event) => {
    if (phase === 'done') return;
    event.preventDefault();
    if (phase === 'stopping') return;
    phase = 'stopping';
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)));
    void Promise.race([work().catch(() => undefined), timeout]).then(() => {
      clearTimeout(timer);
      phase = 'done';
      quit();
    });
  };
}
