import { useEffect } from 'react';
import { useLocation, useWindowContext } from './app-context.tsx';
import type { RequestedTab } from './location-store.ts';

/** Shows the panel at the tab asked for (a clicked notification: main's `focusPanel` with a tab; a service row's Logs), once. */
export function useTabRequest(panelId: string, setTab: (tab: RequestedTab) => void): void {
  const { locationStore } = useWindowContext();
  const { tabRequest } = useLocation();
  useEffect(() => {
    if (tabRequest?.panelId !== panelId) return;
    locationStore.tabRequestDone();
    setTab(tabRequest.tab);
  }, [tabRequest, panelId, locationStore, setTab]);
}
