import { useEffect, useState } from 'react';
import { sessionEndsText } from '../panel-status.ts';

/** How often the minutes left are worked out again: often enough that the count is never a minute off. */
const TICK_MS = 15_000;

/** "Session ends in 9 min" beside the panel's status, counting down; gone once the session has ended. */
export function ExpiryBadge({ expiresAt }: { expiresAt: string }) {
  const [now, setNow] = useState(() => Date.now());
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new end time restarts the clock from now
  useEffect(() => {
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), TICK_MS);
    return () => clearInterval(timer);
  }, [expiresAt]);
  const text = sessionEndsText(expiresAt, now);
  if (!text) return null;
  return (
    <span className="status-badge expiry-badge">
      <time dateTime={expiresAt}>{text}</time>
    </span>
  );
}
