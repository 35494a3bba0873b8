import { sessionEndsText } from '../panel-status.ts';
import { useNow } from '../use-now.ts';

/** How often the minutes left are worked out again: often enough that the count is never a minute off. */
const TICK_MS = 15_000;

/** "Session ends in 9 min" beside the panel's status, counting down; gone once the session has ended. */
export function ExpiryBadge({ expiresAt }: { expiresAt: string }) {
  const now = useNow(TICK_MS, expiresAt);
  const text = sessionEndsText(expiresAt, now);
  if (!text) return null;
  return (
    <span className="status-badge expiry-badge">
      <time dateTime={expiresAt}>{text}</time>
    </span>
  );
}
