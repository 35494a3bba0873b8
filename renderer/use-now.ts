import { useEffect, useState } from 'react';

/**
 * The time now, in ms, renewed every `tickMs` and whenever `restartOn` changes: relative times
 * ("3 min ago", "expires in 1 h") stay right without asking main, and a time that just arrived
 * (a session read, a new end time) is never measured against a clock up to a tick old.
 */
export function useNow(tickMs: number, restartOn?: unknown): number {
  const [now, setNow] = useState(() => Date.now());
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new `restartOn` restarts the clock from now
  useEffect(() => {
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), tickMs);
    return () => clearInterval(timer);
  }, [tickMs, restartOn]);
  return now;
}
