import { useEffect, useState } from 'react';

/**
 * The time now, in ms, renewed every `tickMs` and whenever `restartOn` changes: relative times
 * ("3 min ago", "ends in 9 min") stay right without asking main.
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

/**
 * `now`, or the time `at` when that is later: a clock that ticks every few seconds is older than
 * a check or a read that just arrived, and would count time that has already gone ("expires in
 * 1 h" beside "in 59 min"). Taken per value at render, so nothing renders again for it.
 */
export function notBefore(now: number, at: string | undefined): number {
  const time = at === undefined ? Number.NaN : Date.parse(at);
  return Number.isFinite(time) && time > now ? time : now;
}
