import { useEffect, useState } from 'react';

/** The time now, in ms, renewed every `tickMs`: relative times ("3 min ago") stay right without asking main. */
export function useNow(tickMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), tickMs);
    return () => clearInterval(timer);
  }, [tickMs]);
  return now;
}
