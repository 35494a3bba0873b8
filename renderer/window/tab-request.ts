import { useEffect } from 'react';
import type { AlertTab } from '../../shared/alerts.ts';
import { useWindowContext, useWindowState } from './app-context.tsx';

/** Shows the panel at the tab a clicked notification asked for (main's `focusPanel` with a tab), once. */
export function useTabRequest(panelId: string, setTab: (tab: AlertTab) => void): void {
  const { windowStore } = useWindowContext();
  const { tabRequest } = useWindowState();
  useEffect(() => {
    if (tabRequest?.panelId !== panelId) return;
    windowStore.tabRequestDone();
    setTab(tabRequest.tab);
  }, [tabRequest, panelId, windowStore, setTab]);
}
