import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { agoText } from '../../shared/durations.ts';
import { COLOUR_NAMES } from '../../shared/labels.ts';
import { expiryText, sectionKey, typeAheadIndex, type ListItem } from './panel-list-rows.ts';
import { isApiTokenSignIn } from '../ui/panel-status.ts';
import { rowStateText } from './row-texts.ts';
import { useActiveRange, useScrollToActive } from '../ui/use-active-row.ts';
import { isUnencrypted } from '../ui/plain-http.tsx';
import { useMultiSelect } from './use-multi-select.ts';

/** Every panel row has this height, and every heading its own: ten thousand rows cost no measuring. */
export const ROW_HEIGHT = 44;
export const SECTION_HEIGHT = 30;
/** Letters typed within this time add up to one type-ahead prefix. */
const TYPE_AHEAD_MS = 700;

interface PanelListProps {
  items: readonly ListItem[];
  selectedId: string | null;
  /** The panels selected together (two or more), or empty when only `selectedId` is. */
  marked: ReadonlySet<string>;
  onSelect(id: string): void;
  /** Several panels selected (Shift or Ctrl click, Shift+arrows, Ctrl+A); `focusId` is the one the keyboard is on. */
  onMark(ids: readonly string[], focusId: string): void;
  /** Enter on a panel (the one shown): the operator wants to work in it (a signed-out one: log in). */
  onOpen(id: string): void;
  /** A click on a row's words for its services down: the panel, on its own, at that tab. */
  onShowTab(id: string, tab: 'services'): void;
  /** Right click on a row, or the context-menu key: the row menu, at this point of the window. */
  onOpenMenu(at: { x: number; y: number }): void;
  /** Folds or unfolds a section, by its key. */
  onToggleSection(key: string): void;
  /** The clock of the relative times, ticking in the page (never a call to main). */
  now: number;
  /** Each row says its panel's version: the list is in version order (else the row's line has no room for it). */
  showVersion: boolean;
  /** What the list says when nothing matches. */
  emptyText: string;
  /** Whether the keyboard is in the list (the list's order stays put meanwhile). */
  onFocusChange(focused: boolean): void;
}

/** Where Up/Down, Page Up/Down, Home and End go from `current`; null for any other key. */
function movedTo(key: string, current: number, count: number, pageRows: () => number): number | null {
  switch (key) {
    case 'ArrowDown':
      return current + 1;
    case 'ArrowUp':
      return current < 0 ? 0 : current - 1;
    case 'PageDown':
      return current + pageRows();
    case 'PageUp':
      return current - pageRows();
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return null;
  }
}

/** An id per entry: every character but letters, digits and '-' escaped, '_' too, so two keys never share one. */
const itemId = (key: string) => `list-item-${key.replace(/[^A-Za-z0-9-]/g, (char) => `_${char.codePointAt(0)}_`)}`;
const itemName = (item: ListItem) => (item.kind === 'section' ? item.name : item.row.panel.name);

/**
 * The panels as one WAI-ARIA tree: one Tab stop; Up/Down, Page Up/Down, Home/End and type-ahead
 * move through headings and panels (a panel reached is shown: selection follows focus); Right
 * and Left unfold and fold a heading, Left on a panel goes to its heading; Enter or Space folds
 * a heading, Enter on a panel opens it (`onOpen`). Several panels are selected as in a file manager: Shift or Ctrl (⌘) click,
 * Shift+Up/Down, Ctrl+A; Esc goes back to one. Right click or the context-menu key (Shift+F10)
 * opens the row menu. Only the rows in view (and a few beyond) are in the page.
 */
export function ListLayout({
  items,
  selectedId,
  marked,
  onSelect,
  onMark,
  onOpen,
  onShowTab,
  onOpenMenu,
  onToggleSection,
  now,
  showVersion,
  emptyText,
  onFocusChange,
}: PanelListProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const typed = useRef({ text: '', at: 0 });
  // The entry the keyboard is on: the selected panel, or a heading moved to.
  const [activeKey, setActiveKeyState] = useState<string | null>(selectedId);
  // The newest one at once: a second key pressed before React renders again moves on from it.
  const activeKeyNow = useRef(selectedId);
  const setActiveKey = useCallback((key: string | null) => {
    activeKeyNow.current = key;
    setActiveKeyState(key);
  }, []);
  useEffect(() => setActiveKey(selectedId), [selectedId, setActiveKey]);
  // Stable while the items are: the virtualizer recomputes every row's position when these change.
  const estimateSize = useCallback((index: number) => (items[index]!.kind === 'section' ? SECTION_HEIGHT : ROW_HEIGHT), [items]);
  const getItemKey = useCallback((index: number) => items[index]!.key, [items]);
  const getScrollElement = useCallback(() => scroller.current, []);
  const activeIndex = activeKey === null ? -1 : items.findIndex((item) => item.key === activeKey);
  const rangeExtractor = useActiveRange(activeIndex);
  const virtualizer = useVirtualizer({ count: items.length, getScrollElement, estimateSize, overscan: 6, getItemKey, rangeExtractor });

  useScrollToActive(virtualizer, activeKey, activeIndex);

  const { chooseOne, isSelected, selectRange, toggle, selectAll } = useMultiSelect({
    orderedIds: () => items.flatMap((item) => (item.kind === 'panel' ? [item.key] : [])),
    selectedId,
    marked,
    onSelect,
    onMark,
    onFocusPanel: setActiveKey,
  });
  const moveTo = (index: number) => {
    const item = items[Math.max(0, Math.min(items.length - 1, index))];
    if (!item) return;
    if (item.kind === 'panel') chooseOne(item.key);
    else setActiveKey(item.key);
  };
  /** The next panel from `index` going `step` (headings skipped), or -1. */
  const panelFrom = (index: number, step: number) => {
    for (let at = index + step; at >= 0 && at < items.length; at += step) if (items[at]!.kind === 'panel') return at;
    return -1;
  };
  const openMenuAtActive = () => {
    const row = activeKey === null ? null : document.getElementById(itemId(activeKey));
    const box = row?.getBoundingClientRect() ?? scroller.current?.getBoundingClientRect();
    if (box) onOpenMenu({ x: box.left + 24, y: box.top + Math.min(box.height, ROW_HEIGHT) - 8 });
  };
  const pageRows = () => Math.max(1, Math.floor((scroller.current?.clientHeight ?? ROW_HEIGHT) / ROW_HEIGHT) - 1);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (items.length === 0) return;
    const current = activeKeyNow.current === null ? -1 : items.findIndex((item) => item.key === activeKeyNow.current);
    const active = items[current];
    if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === 'a') {
      event.preventDefault();
      selectAll(active?.kind === 'panel' ? active.key : null);
      return;
    }
    if (event.key === 'ContextMenu' || (event.key === 'F10' && event.shiftKey)) {
      event.preventDefault();
      openMenuAtActive();
      return;
    }
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.key === 'Escape' && marked.size > 1 && active?.kind === 'panel') {
      event.preventDefault();
      chooseOne(active.key);
      return;
    }
    if (event.shiftKey && (event.key === 'ArrowDown' || event.key === 'ArrowUp')) {
      event.preventDefault();
      const next = panelFrom(current, event.key === 'ArrowDown' ? 1 : -1);
      if (next >= 0) selectRange(items[next]!.key);
      return;
    }
    const target = movedTo(event.key, current, items.length, pageRows);
    if (target !== null) {
      event.preventDefault();
      moveTo(target);
      return;
    }
    const at = event.timeStamp;
    const typing = at - typed.current.at < TYPE_AHEAD_MS;
    if (active?.kind === 'section') {
      const key = sectionKey(active);
      // A space while a name is being typed belongs to the name, not to the heading.
      if (
        event.key === 'Enter' ||
        (event.key === ' ' && !typing) ||
        (event.key === 'ArrowRight' && active.collapsed) ||
        (event.key === 'ArrowLeft' && !active.collapsed)
      ) {
        event.preventDefault();
        onToggleSection(key);
        return;
      }
      if (event.key === 'ArrowRight') {
        event.preventDefault();
        moveTo(current + 1);
        return;
      }
    }
    if (active?.kind === 'panel' && event.key === 'Enter' && marked.size <= 1) {
      event.preventDefault();
      onOpen(active.key);
      return;
    }
    if (active?.kind === 'panel' && event.key === 'ArrowLeft' && active.section !== null) {
      event.preventDefault();
      setActiveKey(`section:${active.section}`);
      return;
    }
    // A space belongs to a name being typed ("client 2"); on its own it is not a search.
    if (event.key.length === 1 && (event.key !== ' ' || typing)) {
      const text = typing ? typed.current.text + event.key : event.key;
      typed.current = { text, at };
      const found = typeAheadIndex(items.map(itemName), text, current);
      if (found >= 0) {
        event.preventDefault();
        moveTo(found);
      }
    }
  };

  if (items.length === 0) {
    return <p className="list-layout-empty muted">{emptyText}</p>;
  }
  const activeItem = items[activeIndex];
  return (
    <div
      ref={scroller}
      className="list-layout"
      role="tree"
      aria-label="Panel list"
      aria-multiselectable="true"
      tabIndex={0}
      aria-activedescendant={activeItem ? itemId(activeItem.key) : undefined}
      onKeyDown={onKeyDown}
      onFocus={() => onFocusChange(true)}
      onBlur={() => onFocusChange(false)}
    >
      <div className="list-layout-inner" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((virtual) => {
          const item = items[virtual.index]!;
          const focusList = (target: HTMLElement) => target.closest<HTMLElement>('[role="tree"]')?.focus();
          if (item.kind === 'section') {
            return (
              // biome-ignore lint/a11y/useKeyWithClickEvents lint/a11y/useFocusableInteractive: the tree takes the keyboard for all its items (aria-activedescendant)
              <div
                key={virtual.key}
                id={itemId(item.key)}
                className={`panel-section${item.key === activeKey ? ' is-active' : ''}`}
                role="treeitem"
                aria-level={1}
                aria-setsize={item.setSize}
                aria-posinset={item.position}
                aria-expanded={!item.collapsed}
                style={{ transform: `translateY(${virtual.start}px)`, height: SECTION_HEIGHT }}
                onMouseDown={(event) => event.preventDefault()}
                onClick={(event) => {
                  setActiveKey(item.key);
                  onToggleSection(sectionKey(item));
                  focusList(event.currentTarget);
                }}
              >
                <span className="section-caret" aria-hidden="true">
                  {item.collapsed ? '▸' : '▾'}
                </span>
                <span className="section-name">{item.name}</span>
                <span className="visually-hidden">, </span>
                <span className="section-count">
                  {item.count}
                  <span className="visually-hidden"> panel{item.count === 1 ? '' : 's'}</span>
                  {item.attention > 0 && (
                    <span className="section-attention">
                      {' '}
                      · {item.attention} need{item.attention === 1 ? 's' : ''} attention
                    </span>
                  )}
                </span>
              </div>
            );
          }
          const { panel, kind, label, attention } = item.row;
          const checked = panel.lastCheck ? agoText(Date.parse(panel.lastCheck.at), now) : '';
          const lastCheckFailed = panel.signedIn && panel.lastCheck !== null && !panel.lastCheck.ok;
          const expiry = panel.signedIn ? expiryText(panel.sessionExpiresAt, now, lastCheckFailed) : null;
          const state = rowStateText(item.row, now);
          return (
            // biome-ignore lint/a11y/useKeyWithClickEvents lint/a11y/useFocusableInteractive: the tree takes the keyboard for all its items (aria-activedescendant)
            <div
              key={virtual.key}
              id={itemId(item.key)}
              className={`panel-item${item.key === activeKey ? ' is-active' : ''}${panel.colour ? ` colour-${panel.colour}` : ''}`}
              role="treeitem"
              aria-level={item.section === null ? 1 : 2}
              aria-setsize={item.setSize}
              aria-posinset={item.position}
              aria-selected={isSelected(panel.id)}
              style={{ transform: `translateY(${virtual.start}px)`, height: ROW_HEIGHT }}
              // The list keeps the focus; a click only selects.
              onMouseDown={(event) => event.preventDefault()}
              onClick={(event) => {
                focusList(event.currentTarget);
                if (event.shiftKey) return selectRange(panel.id);
                if (event.ctrlKey || event.metaKey) return toggle(panel.id);
                chooseOne(panel.id);
              }}
              onContextMenu={(event) => {
                event.preventDefault();
                focusList(event.currentTarget);
                // A row outside the selection becomes the selection, as in a file manager.
                if (!isSelected(panel.id)) chooseOne(panel.id);
                onOpenMenu({ x: event.clientX, y: event.clientY });
              }}
              title={`${panel.name} (${panel.address}): ${label}${attention.reason ? `. ${attention.reason}` : ''}`}
            >
              <span className={`status-dot state-${kind}`} aria-hidden="true" />
              <span className="panel-item-text">
                {/* Name and address on one line, the state below: two lines a row, twelve rows or more on a 800 px screen. */}
                <span className="panel-item-title">
                  <span className="panel-item-name">
                    {panel.favourite && (
                      <span className="favourite-mark" aria-hidden="true">
                        ★{' '}
                      </span>
                    )}
                    {panel.name}
                  </span>
                  <span className="panel-item-address">{panel.address.replace(/^https:\/\//, '')}</span>
                </span>
                <span className="panel-item-meta">
                  {state && (
                    // biome-ignore lint/a11y/useKeyWithClickEvents lint/a11y/noStaticElementInteractions: a shortcut for the mouse; the keyboard has the palette's Services
                    <span
                      className={`meta-state tone-${attention.tone}${state.tab ? ' meta-opens' : ''}`}
                      title={state.tab ? 'Open its services' : undefined}
                      onClick={(event) => {
                        const tab = state.tab;
                        // Shift and Ctrl clicks select, as anywhere on the row.
                        if (!tab || event.shiftKey || event.ctrlKey || event.metaKey) return;
                        event.stopPropagation();
                        focusList(event.currentTarget);
                        chooseOne(panel.id);
                        onShowTab(panel.id, tab);
                      }}
                    >
                      {state.text}
                      {state.asOf && <span className="meta-stale"> ({state.asOf})</span>}
                    </span>
                  )}
                  {isUnencrypted(panel) && <span className="meta-danger plain-http-badge">Not encrypted</span>}
                  {showVersion && (
                    <span className="meta-version">{panel.panelVersion === null ? 'version unknown' : `v${panel.panelVersion}`}</span>
                  )}
                  {checked && <span>checked {checked}</span>}
                  {expiry && <span className={`meta-expiry meta-${expiry.tone}`}>{expiry.text}</span>}
                  {isApiTokenSignIn(panel) && <span className="meta-api-token">API token</span>}
                  {panel.tags.length > 0 && <span className="meta-tags">{panel.tags.join(', ')}</span>}
                </span>
              </span>
              <span className="visually-hidden">
                , {state ? '' : label}
                {panel.colour ? `, ${COLOUR_NAMES[panel.colour]}` : ''}
                {panel.favourite ? ', favourite' : ''}
              </span>
            </div>
          );
        })}
      </div>
    </div>
  );
}
