import { sessionEndsText } from '../ui/panel-status.ts';
import { useNow } from '../window/app-context.tsx';

/**
 * "Session ends in 9 min" beside the panel's status, counting down; gone once the session has
 * ended. After a failed check it is the last known end ("Last known: session ends in 9 min").
 */
export function ExpiryBadge({ expiresAt, lastKnown }: { expiresAt: string; lastKnown: boolean }) {
  const now = useNow();
  const text = sessionEndsText(expiresAt, now, lastKnown);
  if (!text) return null;
  return (
    <span className="status-badge expiry-badge">
      <time dateTime={expiresAt}>{text}</time>
    </span>
  );
}
