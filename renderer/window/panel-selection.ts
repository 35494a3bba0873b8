import type { Panel } from '../../shared/types.ts';

/* The window's selection (location-store.ts) read against the panel list. */

/** The panel shown: the one selected, or the first when none is or it is gone (removed here or elsewhere). */
export function selectedPanel(panels: readonly Panel[] | null, byId: ReadonlyMap<string, Panel>, selectedId: string | null): Panel | null {
  return (selectedId !== null ? byId.get(selectedId) : undefined) ?? panels?.[0] ?? null;
}

/** The panels selected together, in the list's order; panels removed meanwhile drop out. */
export function markedPanels(panels: readonly Panel[] | null, marked: ReadonlySet<string>): Panel[] {
  return marked.size > 1 ? (panels ?? []).filter((panel) => marked.has(panel.id)) : [];
}

/** Per list (the store's lists are immutable): the window, its dialogs and the saving of the view ask for the same groups. */
const groupsByList = new WeakMap<readonly Panel[], string[]>();
const NO_GROUPS: string[] = [];

/** Every group in use, sorted: offered wherever a group is typed. Worked out once per list. */
export function groupsInUse(panels: readonly Panel[] | null): string[] {
  if (panels === null) return NO_GROUPS;
  let groups = groupsByList.get(panels);
  if (groups === undefined) {
    groups = [...new Set(panels.flatMap((panel) => (panel.group === null ? [] : [panel.group])))].sort();
    groupsByList.set(panels, groups);
  }
  return groups;
}
