import { DEFAULT_SETTINGS } from '../../shared/settings.ts';
import type { PanelListSettings } from '../../shared/types.ts';
import { SnapshotStore } from './snapshot-store.ts';

/** What of the panel list's settings the panel list changes; the selection is the location's. */
export type PanelListChoices = Pick<
  PanelListSettings,
  'sort' | 'attentionOnly' | 'collapsedGroups' | 'layout' | 'paneWidth' | 'table' | 'servicesGroupBy'
>;

export interface PanelListChoicesSnapshot {
  readonly panelListChoices: PanelListChoices;
  /** Whether the list's view is the operator's yet (adopted from the settings): only then is it saved. */
  readonly panelListChoicesAdopted: boolean;
}

function panelListChoicesOf({
  sort,
  attentionOnly,
  collapsedGroups,
  layout,
  paneWidth,
  table,
  servicesGroupBy,
}: PanelListSettings): PanelListChoices {
  // The table's fields only when the operator set them: a view of an older version has none.
  return {
    sort,
    attentionOnly,
    collapsedGroups,
    ...(layout && { layout }),
    ...(paneWidth !== undefined && { paneWidth }),
    ...(table && { table }),
    ...(servicesGroupBy && { servicesGroupBy }),
  };
}

/** How the list looks (sort, filter, folded groups, layout): the defaults until the settings bring the operator's. */
export class PanelListChoicesStore extends SnapshotStore<PanelListChoicesSnapshot> {
  /** The panel list changed the view before the settings arrived: the operator's change wins. */
  #touched = false;

  constructor() {
    super({ panelListChoices: panelListChoicesOf(DEFAULT_SETTINGS.panelList), panelListChoicesAdopted: false });
  }

  /**
   * The view as the operator left it (the first status's settings), once. True when it was taken;
   * false when it was adopted before, or when a change made meanwhile wins over it.
   */
  adopt(remembered: PanelListSettings): boolean {
    if (this.getSnapshot().panelListChoicesAdopted) return false;
    if (this.#touched) {
      this.update({ panelListChoicesAdopted: true });
      return false;
    }
    this.update({ panelListChoicesAdopted: true, panelListChoices: panelListChoicesOf(remembered) });
    return true;
  }

  change(change: Partial<PanelListChoices>): void {
    this.#touched = true;
    this.update({ panelListChoices: { ...this.getSnapshot().panelListChoices, ...change } });
  }
}
