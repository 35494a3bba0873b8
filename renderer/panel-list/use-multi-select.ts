import { useEffect, useRef } from 'react';

interface MultiSelectOptions {
  /** The panels' ids in the layout's order (headings and group rows left out). */
  orderedIds(): readonly string[];
  selectedId: string | null;
  /** The panels selected together (two or more), or empty when only `selectedId` is. */
  marked: ReadonlySet<string>;
  onSelect(id: string): void;
  onMark(ids: readonly string[], focusId: string): void;
  /** The entry the keyboard is on moves to this panel (the list keeps its own, for headings). */
  onFocusPanel?(id: string): void;
}

export interface MultiSelect {
  isSelected(id: string): boolean;
  /** One panel, on its own: Shift selections run from it. */
  chooseOne(id: string): void;
  /** The panels from the anchor to `id`, in the layout's order (Shift click, Shift+Up/Down). */
  selectRange(id: string): void;
  /** One panel in or out of the selection (Ctrl or ⌘ click). */
  toggle(id: string): void;
  /** Every panel shown (Ctrl+A); the keyboard stays on `focusId`, else goes to the first. */
  selectAll(focusId: string | null): void;
}

/**
 * Selecting several panels as in a file manager, one rule for the list and the table: a click
 * chooses one, Shift extends from the last one chosen, Ctrl (⌘) adds or takes out one, Ctrl+A
 * takes all shown.
 */
export function useMultiSelect({ orderedIds, selectedId, marked, onSelect, onMark, onFocusPanel }: MultiSelectOptions): MultiSelect {
  // Where a Shift selection runs from: the panel last chosen on its own (click, arrow, Ctrl click).
  const anchor = useRef<string | null>(selectedId);
  // A panel chosen elsewhere (the palette, an alert, a notification) on its own: Shift runs from it.
  useEffect(() => {
    if (marked.size <= 1) anchor.current = selectedId;
  }, [selectedId, marked]);
  const focus = (id: string) => onFocusPanel?.(id);
  return {
    isSelected: (id) => (marked.size > 1 ? marked.has(id) : id === selectedId),
    chooseOne: (id) => {
      focus(id);
      anchor.current = id;
      onSelect(id);
    },
    selectRange: (id) => {
      const ids = orderedIds();
      const from = ids.indexOf(anchor.current ?? id);
      const to = ids.indexOf(id);
      const [start, end] = from < 0 ? [to, to] : [Math.min(from, to), Math.max(from, to)];
      focus(id);
      onMark(ids.slice(start, end + 1), id);
    },
    toggle: (id) => {
      const chosen = new Set(marked.size > 1 ? marked : selectedId ? [selectedId] : []);
      if (chosen.has(id)) chosen.delete(id);
      else chosen.add(id);
      const ids = [...chosen];
      // Down to one (or none: the last one stays): that one is simply the selected panel.
      const focusId = ids.length > 1 ? id : (ids[0] ?? id);
      anchor.current = focusId;
      focus(focusId);
      onMark(ids.length > 1 ? ids : [focusId], focusId);
    },
    selectAll: (focusId) => {
      const ids = orderedIds();
      const kept = focusId !== null && ids.includes(focusId) ? focusId : ids[0];
      if (kept) onMark(ids, kept);
    },
  };
}
