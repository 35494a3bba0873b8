import { DEFAULT_SETTINGS } from '../../shared/settings.ts';
import type { BoardView } from '../../shared/types.ts';
import { SnapshotStore } from './snapshot-store.ts';

/** What of the list's view the sidebar changes; the selection is the location's. */
export type ListView = Pick<BoardView, 'sort' | 'attentionOnly' | 'collapsedGroups' | 'layout' | 'paneWidth' | 'table' | 'servicesGroupBy'>;

export interface ListViewSnapshot {
  readonly listView: ListView;
  /** Whether the list's view is the operator's yet (adopted from the settings): only then is it saved. */
  readonly listViewAdopted: boolean;
}

function listViewOf({ sort, attentionOnly, collapsedGroups, layout, paneWidth, table, servicesGroupBy }: BoardView): ListView {
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
export class ListViewStore extends SnapshotStore<ListViewSnapshot> {
  /** The sidebar changed the view before the settings arrived: the operator's change wins. */
  #touched = false;

  constructor() {
    super({ listView: listViewOf(DEFAULT_SETTINGS.boardView), listViewAdopted: false });
  }

  /**
   * The view as the operator left it (the first status's settings), once. True when it was taken;
   * false when it was adopted before, or when a change made meanwhile wins over it.
   */
  adopt(remembered: BoardView): boolean {
    if (this.getSnapshot().listViewAdopted) return false;
    if (this.#touched) {
      this.update({ listViewAdopted: true });
      return false;
    }
    this.update({ listViewAdopted: true, listView: listViewOf(remembered) });
    return true;
  }

  change(change: Partial<ListView>): void {
    this.#touched = true;
    this.update({ listView: { ...this.getSnapshot().listView, ...change } });
  }
}
