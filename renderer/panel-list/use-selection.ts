import { useMemo } from 'react';
import type { Panel } from '../../shared/types.ts';
import { usePanelListChoices, useLocation, usePanels } from '../window/app-context.tsx';
import { groupsInUse, markedPanels, selectedPanel } from '../window/panel-selection.ts';
import { inListOrder } from './panel-list-rows.ts';

/** The panel shown, the panels selected together and the groups in use, worked out once per change. */
export function useSelection(): { selected: Panel | null; marked: Panel[]; groups: string[] } {
  const { panels, byId } = usePanels();
  const { selectedId, marked } = useLocation();
  const { panelListChoices } = usePanelListChoices();
  const selected = selectedPanel(panels, byId, selectedId);
  // In the list's order (its sort and sections), not the order main keeps them in (import order).
  const markedList = useMemo(
    () => inListOrder(markedPanels(panels, marked), panelListChoices.sort),
    [panels, marked, panelListChoices.sort],
  );
  const groups = groupsInUse(panels);
  return { selected, marked: markedList, groups };
}
