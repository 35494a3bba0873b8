import type { Panel } from '../shared/types.ts';

export type PanelStatusKind = 'signed-in' | 'check-failed' | 'expired' | 'signed-out';

export interface PanelStatus {
  kind: PanelStatusKind;
  label: string;
}

/** What the sidebar dot and the panel header say about a panel. */
export function panelStatus(panel: Panel): PanelStatus {
  if (panel.signedIn) {
    if (panel.lastCheck && !panel.lastCheck.ok) return { kind: 'check-failed', label: 'Signed in, last check failed' };
    return { kind: 'signed-in', label: 'Signed in' };
  }
  if (isSessionLost(panel)) return { kind: 'expired', label: 'Session expired' };
  return { kind: 'signed-out', label: 'Signed out' };
}

/** Signed out by the panel or by an unreadable saved token rather than by the operator. */
export function isSessionLost(panel: Panel): boolean {
  const code = panel.signedOutReason?.code;
  return !panel.signedIn && (code === 'UNAUTHORIZED' || code === 'TOKEN_UNREADABLE');
}
