import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { LIST_SORTS, type ListSort, type TableSettings } from '../../shared/types.ts';
import {
  useCommandHandlers,
  useHealth,
  useNow,
  usePanelChanges,
  usePanels,
  usePanelListChoices,
  useLocation,
  useStatus,
  useWindowContext,
} from '../window/app-context.tsx';
import { useBusyAction } from '../window/busy-action.ts';
import { listItems, SORT_NAMES, STATUS_NAMES, STATUS_ORDER } from './panel-list-rows.ts';
import { failureInfo } from '../window/failure-info.ts';
import type { PanelListChoices } from '../window/panel-list-choices-store.ts';
import type { FleetWideView } from '../window/location-store.ts';
import { selectedPanel } from '../window/panel-selection.ts';
import { clampPaneWidth, HealthCounts, healthCounts, PaneHandle, tableOf } from './table-layout-parts.tsx';
import { TableLayout } from './table-layout.tsx';
import { ColumnMenu } from './table-header.tsx';
import { ListLayout } from './list-layout.tsx';
import { SearchField } from '../ui/search-field.tsx';
import { usePanelRows } from './use-panel-rows.ts';

const NO_PANELS: readonly never[] = [];

/** The footer's buttons of the fleet's views, in order: each shows its view, or the panels again when it is shown. */
const FLEET_WIDE_BUTTONS: readonly { view: FleetWideView; label: string; title?: string }[] = [
  { view: 'activity', label: 'Activity' },
  { view: 'alerts', label: 'Alerts' },
  { view: 'allServices', label: 'All services' },
  { view: 'backups', label: 'Backups', title: 'Every backup schedule of the fleet, the databases without one first' },
  { view: 'certificates', label: 'Certificates', title: 'The certificate of every domain of the fleet, the soonest to end first' },
  { view: 'fleetConsole', label: 'Fleet console', title: "Run one operation of the panels' API on many panels, into a table" },
];

/**
 * The fleet at a glance: find, counts per state, the attention filter, Check all, and the list.
 * Sort, Needs attention and folded groups are the window's (kept across restarts); the check pass
 * under way (the operator's or the background's) is main's.
 */
export function PanelListPane() {
  const { api, dialogStore, panelListChoicesStore, locationStore } = useWindowContext();
  const { panels: known, byId, progress } = usePanels();
  const panels = known ?? NO_PANELS;
  const { panelListChoices: choices } = usePanelListChoices();
  const { marked, selectedId: chosenId, view } = useLocation();
  const { status } = useStatus();
  const selectedId = selectedPanel(known, byId, chosenId)?.id ?? null;
  const onViewChange = (change: Partial<PanelListChoices>) => panelListChoicesStore.change(change);
  const onPreferences = status ? () => dialogStore.openDialog({ kind: 'preferences' }) : undefined;
  const [query, setQuery] = useState('');
  const { attentionOnly, sort, collapsedGroups } = choices;
  const tabled = choices.layout === 'table';
  const table = tableOf(choices.table);
  const health = useHealth();
  const changes = usePanelChanges();
  const nav = useRef<HTMLElement>(null);
  const { error: checkError, setError: setCheckError, run } = useBusyAction();
  const search = useRef<HTMLInputElement>(null);
  const now = useNow();
  const [listFocused, setListFocused] = useState(false);
  const { listed, listedHealth, listedQuery, settling, fleet, listRows, tableItems, tableRows, shown } = usePanelRows({
    panels,
    health,
    query,
    attentionOnly,
    sort,
    table: tabled ? table : null,
    listFocused,
  });
  // Of the rows' panels and state (deferred): ten thousand are counted in the rows' render, not before it.
  const counts = useMemo(() => healthCounts(listed, listedHealth), [listed, listedHealth]);
  const mute = (id: string, muted: boolean) => run(async () => changes.changed(await api.updatePanels([id], { muted })));
  const collapsed = useMemo(() => new Set(collapsedGroups), [collapsedGroups]);
  const items = useMemo(() => listItems(listRows, collapsed), [listRows, collapsed]);
  const toggleSection = (key: string) =>
    onViewChange({ collapsedGroups: collapsed.has(key) ? collapsedGroups.filter((name) => name !== key) : [...collapsedGroups, key] });
  const filtered = listedQuery.trim() !== '' || attentionOnly;
  const changeTable = (change: Partial<TableSettings>) => onViewChange({ table: { ...table, ...change } });
  // Enter on a signed-out (or expired) panel: its log in form, at the password when the email is known.
  const open = (id: string) => {
    if (byId.get(id)?.signedIn === false) locationStore.focusPanel(id, 'logIn');
  };
  const emptyText = settling
    ? 'Listing the panels…'
    : attentionOnly && listedQuery.trim() === ''
      ? 'No panel needs attention.'
      : 'No panel matches. Esc in the search box clears it.';

  const focusSearch = useCallback(() => {
    search.current?.focus();
    search.current?.select();
  }, []);
  // "/" goes to the search box too, as in many list tools (Ctrl+F is the window's Find command).
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const typing =
        event.target instanceof HTMLElement && event.target.closest('input, textarea, select, [contenteditable="true"], dialog') !== null;
      if (event.defaultPrevented || event.isComposing) return;
      if (event.key === '/' && !typing && !event.ctrlKey && !event.metaKey && !event.altKey) {
        event.preventDefault();
        focusSearch();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [focusSearch]);

  const checkAll = () => run(async () => void (await api.checkPanels()));
  useCommandHandlers({
    find: focusSearch,
    checkAll: () => {
      if (!progress) void checkAll();
    },
  });
  const cancel = () => void api.cancelChecks().catch((caught: unknown) => setCheckError(failureInfo(caught)));
  const signedIn = panels.some((panel) => panel.signedIn);

  const addPanel = (
    <button type="button" className="button-primary" onClick={() => dialogStore.openDialog({ kind: 'addPanel' })}>
      Add panel
    </button>
  );
  const searchBox = (
    <div className="fleet-search">
      <SearchField
        ref={search}
        label="Find panels"
        placeholder="Find panels  (Ctrl+F)"
        title="Every word must start a word of a name, an address, a group, a tag or the version, or be a state (unknown, unreachable, expired, signed out), a colour (red, production) or a fact (down, disk>90, cpu>80, version:2.30, update:available); best matches of the name first"
        value={query}
        onSearch={setQuery}
      />
    </div>
  );
  const stateCounts = (
    <ul className="fleet-counts" aria-label="Panels by state">
      {STATUS_ORDER.filter((kind) => fleet.counts[kind] > 0).map((kind) => (
        <li key={kind} className="fleet-count">
          <span className={`status-dot state-${kind}`} aria-hidden="true" />
          {fleet.counts[kind]} {countWord(STATUS_NAMES[kind])}
        </li>
      ))}
    </ul>
  );
  const actions = (
    <div className="fleet-actions">
      <button
        type="button"
        className="button-small"
        aria-pressed={attentionOnly}
        onClick={() => onViewChange({ attentionOnly: !attentionOnly })}
      >
        Needs attention ({fleet.attention})
      </button>
      {progress ? (
        <span className="fleet-progress">
          <progress max={progress.total} value={progress.done} aria-label="Checking panels" />
          <span role="status">
            Checking {progress.done} / {progress.total}
          </span>
          <button type="button" className="button-small" onClick={cancel}>
            Cancel
          </button>
        </span>
      ) : (
        <button
          type="button"
          className="button-small"
          disabled={!signedIn}
          onClick={() => void checkAll()}
          title={signedIn ? undefined : 'No panel is signed in'}
        >
          Check all
        </button>
      )}
    </div>
  );
  const viewTools = (
    <div className="fleet-sort">
      <fieldset className="layout-toggle">
        <legend>View</legend>
        <button type="button" className="button-small" aria-pressed={!tabled} onClick={() => onViewChange({ layout: 'list' })}>
          List
        </button>
        <button type="button" className="button-small" aria-pressed={tabled} onClick={() => onViewChange({ layout: 'table' })}>
          Table
        </button>
      </fieldset>
      {tabled ? (
        <ColumnMenu table={table} onChange={changeTable} />
      ) : (
        <>
          <label htmlFor="fleet-sort">Sort</label>
          <select id="fleet-sort" value={sort} onChange={(event) => onViewChange({ sort: event.target.value as ListSort })}>
            {LIST_SORTS.map((key) => (
              <option key={key} value={key}>
                {SORT_NAMES[key]}
              </option>
            ))}
          </select>
        </>
      )}
    </div>
  );
  const notes = (
    <>
      {checkError && <p className="field-error">{checkError.message}</p>}
      <p className="fleet-matches muted" role="status">
        {filtered ? `${tabled ? shown : listRows.length} of ${listed.length} panels` : ''}
      </p>
    </>
  );
  const footer = (
    <div className="panel-list-footer">
      <button type="button" onClick={onPreferences} disabled={!onPreferences}>
        Preferences
      </button>
      {FLEET_WIDE_BUTTONS.map(({ view: shows, label, title }) => (
        <button key={shows} type="button" aria-pressed={view === shows} title={title} onClick={() => locationStore.toggle(shows)}>
          {label}
        </button>
      ))}
    </div>
  );

  // The table keeps the screen for rows: its tools are two lines (the bar, then the counts and the footer's buttons).
  return (
    <nav ref={nav} className={tabled ? 'panel-list-pane is-table' : 'panel-list-pane'} aria-label="Panels">
      {tabled && panels.length > 0 ? (
        <>
          <div className="table-layout-bar">
            <span className="brand">Paneldeck</span>
            {searchBox}
            {actions}
            {viewTools}
            {addPanel}
          </div>
          <div className="table-layout-facts">
            {stateCounts}
            <HealthCounts counts={counts} onSearch={setQuery} />
            {notes}
            {footer}
          </div>
          <TableLayout
            items={tableItems}
            fitRows={tableRows}
            table={table}
            onTableChange={changeTable}
            selectedId={selectedId}
            marked={marked}
            onSelect={(id) => locationStore.selectOne(id)}
            onMark={(ids, focusId) => locationStore.selectMany(ids, focusId)}
            onOpen={open}
            onOpenMenu={(at) => dialogStore.openDialog({ kind: 'rowMenu', at })}
            onMute={(id, muted) => void mute(id, muted)}
            onFocusChange={setListFocused}
            now={now}
            emptyText={emptyText}
          />
          <PaneHandle
            width={() => choices.paneWidth ?? nav.current?.getBoundingClientRect().width ?? 600}
            onWidth={(paneWidth) => onViewChange({ paneWidth: clampPaneWidth(paneWidth, window.innerWidth) })}
          />
        </>
      ) : (
        <>
          <div className="panel-list-header">
            <span className="brand">Paneldeck</span>
            {addPanel}
          </div>
          {panels.length > 0 && (
            <div className="fleet-tools">
              {searchBox}
              {stateCounts}
              <HealthCounts counts={counts} onSearch={setQuery} />
              {actions}
              {viewTools}
              {notes}
            </div>
          )}
          {panels.length > 0 && (
            <ListLayout
              onFocusChange={setListFocused}
              items={items}
              selectedId={selectedId}
              marked={marked}
              onSelect={(id) => locationStore.selectOne(id)}
              onMark={(ids, focusId) => locationStore.selectMany(ids, focusId)}
              // Enter on a signed-out (or expired) panel: its log in form, at the password when the email is known.
              onOpen={open}
              onShowTab={(id, tab) => locationStore.showPanelAt(id, tab)}
              onOpenMenu={(at) => dialogStore.openDialog({ kind: 'rowMenu', at })}
              onToggleSection={toggleSection}
              now={now}
              showVersion={sort === 'version'}
              emptyText={emptyText}
            />
          )}
          {footer}
        </>
      )}
    </nav>
  );
}

/** A state's word after its count: "3 signed in", "2 state unknown", but "4 OK". */
function countWord(word: string): string {
  return word === word.toUpperCase() ? word : word.toLowerCase();
}
