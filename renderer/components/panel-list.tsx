import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, type KeyboardEvent } from 'react';
import { agoText, expiryText, typeAheadIndex, type FleetRow } from '../fleet-view.ts';
import { isUnencrypted } from './plain-http.tsx';

/** Every row has this height, so ten thousand rows cost a multiplication, not a measurement each. */
export const ROW_HEIGHT = 66;
/** Letters typed within this time add up to one type-ahead prefix. */
const TYPE_AHEAD_MS = 700;

interface PanelListProps {
  rows: readonly FleetRow[];
  selectedId: string | null;
  onSelect(id: string): void;
  /** The clock of the relative times, ticking in the page (never a call to main). */
  now: number;
  /** What the list says when no row matches. */
  emptyText: string;
}

const optionId = (panelId: string) => `panel-option-${panelId}`;

/**
 * The panels as one WAI-ARIA listbox: one Tab stop, the selection moved with the arrow keys,
 * Page Up/Down, Home/End and type-ahead (selection follows focus, as in a mail client's list).
 * Only the rows in view (and a few beyond) are in the page.
 */
export function PanelList({ rows, selectedId, onSelect, now, emptyText }: PanelListProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const typed = useRef({ text: '', at: 0 });
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 6,
    getItemKey: (index) => rows[index]!.panel.id,
  });
  const selectedIndex = selectedId === null ? -1 : rows.findIndex((row) => row.panel.id === selectedId);

  // The selected row is kept in view, also when it was chosen elsewhere (a notification, a new panel).
  useEffect(() => {
    if (selectedIndex >= 0) virtualizer.scrollToIndex(selectedIndex, { align: 'auto' });
  }, [selectedIndex, virtualizer]);

  const select = (index: number) => {
    const row = rows[Math.max(0, Math.min(rows.length - 1, index))];
    if (row) onSelect(row.panel.id);
  };
  const pageRows = () => Math.max(1, Math.floor((scroller.current?.clientHeight ?? ROW_HEIGHT) / ROW_HEIGHT) - 1);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.altKey || event.ctrlKey || event.metaKey || rows.length === 0) return;
    const current = selectedIndex;
    const moves: Partial<Record<string, () => number>> = {
      ArrowDown: () => current + 1,
      ArrowUp: () => (current < 0 ? 0 : current - 1),
      PageDown: () => current + pageRows(),
      PageUp: () => current - pageRows(),
      Home: () => 0,
      End: () => rows.length - 1,
    };
    const move = moves[event.key];
    if (move) {
      event.preventDefault();
      select(move());
      return;
    }
    const at = event.timeStamp;
    const typing = at - typed.current.at < TYPE_AHEAD_MS;
    // A space belongs to a name being typed ("client 2"); on its own it is not a search.
    if (event.key.length === 1 && (event.key !== ' ' || typing)) {
      const text = typing ? typed.current.text + event.key : event.key;
      typed.current = { text, at };
      const found = typeAheadIndex(rows, text, current);
      if (found >= 0) {
        event.preventDefault();
        select(found);
      }
    }
  };

  if (rows.length === 0) {
    return <p className="panel-list-empty muted">{emptyText}</p>;
  }
  return (
    <div
      ref={scroller}
      className="panel-list"
      role="listbox"
      aria-label="Panel list"
      tabIndex={0}
      aria-activedescendant={selectedIndex >= 0 ? optionId(rows[selectedIndex]!.panel.id) : undefined}
      onKeyDown={onKeyDown}
    >
      <div className="panel-list-inner" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((item) => {
          const row = rows[item.index]!;
          return (
            <PanelRow
              key={item.key}
              row={row}
              top={item.start}
              selected={row.panel.id === selectedId}
              position={item.index + 1}
              count={rows.length}
              now={now}
              onSelect={onSelect}
            />
          );
        })}
      </div>
    </div>
  );
}

interface PanelRowProps {
  row: FleetRow;
  top: number;
  selected: boolean;
  position: number;
  count: number;
  now: number;
  onSelect(id: string): void;
}

function PanelRow({ row, top, selected, position, count, now, onSelect }: PanelRowProps) {
  const { panel, kind, label } = row;
  const checked = panel.lastCheck ? agoText(panel.lastCheck.at, now) : '';
  const expiry = panel.signedIn ? expiryText(panel.sessionExpiresAt, now) : null;
  return (
    <div
      id={optionId(panel.id)}
      className="panel-item"
      role="option"
      aria-selected={selected}
      aria-setsize={count}
      aria-posinset={position}
      style={{ transform: `translateY(${top}px)`, height: ROW_HEIGHT }}
      // The list keeps the focus; a click only selects.
      onMouseDown={(event) => event.preventDefault()}
      onClick={(event) => {
        onSelect(panel.id);
        event.currentTarget.closest<HTMLElement>('[role="listbox"]')?.focus();
      }}
      title={`${panel.name} (${panel.address}): ${label}`}
    >
      <span className={`status-dot status-${kind}`} aria-hidden="true" />
      <span className="panel-item-text">
        <span className="panel-item-name">{panel.name}</span>
        <span className="panel-item-address">{panel.address}</span>
        <span className="panel-item-meta">
          {isUnencrypted(panel) && <span className="meta-danger plain-http-badge">Not encrypted</span>}
          {checked && <span>checked {checked}</span>}
          {expiry && <span className={`meta-expiry meta-${expiry.tone}`}>{expiry.text}</span>}
        </span>
      </span>
      <span className="visually-hidden">, {label}</span>
    </div>
  );
}
