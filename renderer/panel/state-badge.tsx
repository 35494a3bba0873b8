import type { PanelHealth } from '../../shared/fleet-state.ts';
import type { Panel } from '../../shared/types.ts';
import { useNow } from '../window/app-context.tsx';
import { judgePanel, servicesDownText, staleAge } from '../ui/panel-state.ts';

/**
 * The panel's state in its header, as the panel list says it (ui/panel-state.ts): the word, for
 * services down which ones, and when what is known is older than the last check, its age. The
 * reason in full is the tooltip.
 */
export function StateBadge({ panel, health }: { panel: Panel; health: PanelHealth | undefined }) {
  const now = useNow();
  const judged = judgePanel(panel, health);
  const stale = staleAge(panel, health, now);
  const down = judged.state === 'degraded' ? servicesDownText(health, 'long', 5) : null;
  return (
    <span className={`status-badge state-badge tone-${judged.tone}`} title={judged.reason ?? undefined}>
      <span className={`status-dot state-${judged.state}`} aria-hidden="true" />
      {judged.word}
      {down && `: ${down}`}
      {stale && <span className="meta-stale"> · figures {stale}</span>}
    </span>
  );
}
