import { useEffect } from 'react';
import type { AlertTab } from '../../shared/alerts.ts';
import { useLocation, useWindowContext } from './app-context.tsx';

/** Shows the panel at the tab a clicked notification asked for (main's `focusPanel` with a tab), once. */
export function useTabRequest(panelId: string, setTab: (tab: AlertTab) => void): void {
  const { locationStore } = useWindowContext();
  const { tabRequest } = useLocation();
  useEffect(() => {
    if (tabRequest?.panelId !== panelId) return;
    locationStore.tabRequestDone();
    setTab(tabRequest.tab);
  }, [tabRequest, panelId, locationStore, setTab]);
}
