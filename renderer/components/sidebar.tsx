import { useCallback, useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { BOARD_SORTS, type BoardSort } from '../../shared/types.ts';
import { useCommandHandlers, useNow, usePanels, useWindowContext, useWindowState } from '../app-context.tsx';
import { useBusyAction } from '../busy-action.ts';
import { boardItems, fleetView, type FleetCache, sortKey, sortPanels, SORT_NAMES, STATUS_NAMES, STATUS_ORDER } from '../fleet-view.ts';
import { failureInfo } from '../failure-info.ts';
import { selectedPanel, type ListView } from '../window-store.ts';
import { PanelList } from './panel-list.tsx';
import { SearchField } from './search-field.tsx';

const NO_PANELS: readonly never[] = [];

/**
 * The fleet at a glance: find, counts per state, the attention filter, Check all, and the list.
 * Sort, Needs attention and folded groups are the window's (kept across restarts); the check pass
 * under way (the operator's or the background's) is main's.
 */
export function Sidebar() {
  const { api, windowStore } = useWindowContext();
  const { panels: known, byId, progress } = usePanels();
  const panels = known ?? NO_PANELS;
  const { listView: board, marked, status, selectedId: chosenId, activityOpen } = useWindowState();
  const selectedId = selectedPanel(known, byId, chosenId)?.id ?? null;
  const onViewChange = (change: Partial<ListView>) => windowStore.changeListView(change);
  const onPreferences = status ? () => windowStore.openDialog({ kind: 'preferences' }) : undefined;
  const [query, setQuery] = useState('');
  const { attentionOnly, sort, collapsedGroups } = board;
  const { error: checkError, setError: setCheckError, run } = useBusyAction();
  const search = useRef<HTMLInputElement>(null);
  const searchText = useRef<FleetCache>(new WeakMap());
  const now = useNow();
  // Ten thousand panels are sorted, filtered and grouped in a render of their own, which React
  // may interrupt: the rest of the window (the panel shown, what is typed) never waits behind it.
  const listed = useDeferredValue(panels);
  const listedQuery = useDeferredValue(query);
  const settling = listed !== panels || listedQuery !== query;
  // While the operator works in the list, rows keep the places they had (a session read would
  // move the row just selected when sorted by last check, status or session end); new panels get
  // theirs. Out of the list, the order is live. A search puts the best matches first within each
  // section (the headings stay in place) and keeps this order among equal matches.
  const [listFocused, setListFocused] = useState(false);
  // The keys are the order's own: another order (chosen while the list keeps the focus) starts afresh.
  const frozenKeys = useRef({ sort, keys: new Map<string, number>() });
  const sorted = useMemo(() => {
    if (!listFocused || frozenKeys.current.sort !== sort) frozenKeys.current = { sort, keys: new Map() };
    const { keys } = frozenKeys.current;
    return sortPanels(listed, sort, (panel) => {
      let key = keys.get(panel.id);
      if (key === undefined) {
        key = sortKey(panel, sort);
        keys.set(panel.id, key);
      }
      return key;
    });
  }, [listed, sort, listFocused]);
  const view = useMemo(
    () => fleetView(sorted, { query: listedQuery, attentionOnly }, searchText.current),
    [sorted, listedQuery, attentionOnly],
  );
  const collapsed = useMemo(() => new Set(collapsedGroups), [collapsedGroups]);
  const items = useMemo(() => boardItems(view.rows, collapsed), [view.rows, collapsed]);
  const toggleSection = (key: string) =>
    onViewChange({ collapsedGroups: collapsed.has(key) ? collapsedGroups.filter((name) => name !== key) : [...collapsedGroups, key] });
  const filtered = listedQuery.trim() !== '' || attentionOnly;

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
  const signedIn = view.counts['signed-in'] + view.counts['check-failed'] > 0;

  return (
    <nav className="sidebar" aria-label="Panels">
      <div className="sidebar-header">
        <span className="brand">Paneldeck</span>
        <button type="button" className="button-primary" onClick={() => windowStore.openDialog({ kind: 'addPanel' })}>
          Add panel
        </button>
      </div>
      {panels.length > 0 && (
        <div className="fleet-tools">
          <div className="fleet-search">
            <SearchField
              ref={search}
              label="Find panels"
              placeholder="Find panels  (Ctrl+F)"
              title="Every word must start a word of a name, an address, a group, a tag or the version, or be a state (expired, failing, signed out) or a colour (red, production); best matches of the name first"
              value={query}
              onSearch={setQuery}
            />
          </div>
          <ul className="fleet-counts" aria-label="Panels by state">
            {STATUS_ORDER.filter((kind) => view.counts[kind] > 0).map((kind) => (
              <li key={kind} className="fleet-count">
                <span className={`status-dot status-${kind}`} aria-hidden="true" />
                {view.counts[kind]} {STATUS_NAMES[kind].toLowerCase()}
              </li>
            ))}
          </ul>
          <div className="fleet-actions">
            <button
              type="button"
              className="button-small"
              aria-pressed={attentionOnly}
              onClick={() => onViewChange({ attentionOnly: !attentionOnly })}
            >
              Needs attention ({view.attention})
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
          <div className="fleet-sort">
            <label htmlFor="fleet-sort">Sort</label>
            <select id="fleet-sort" value={sort} onChange={(event) => onViewChange({ sort: event.target.value as BoardSort })}>
              {BOARD_SORTS.map((key) => (
                <option key={key} value={key}>
                  {SORT_NAMES[key]}
                </option>
              ))}
            </select>
          </div>
          {checkError && <p className="field-error">{checkError.message}</p>}
          <p className="fleet-matches muted" role="status">
            {filtered ? `${view.rows.length} of ${listed.length} panels` : ''}
          </p>
        </div>
      )}
      {panels.length > 0 && (
        <PanelList
          onFocusChange={setListFocused}
          items={items}
          selectedId={selectedId}
          marked={marked}
          onSelect={(id) => windowStore.selectOne(id)}
          onMark={(ids, focusId) => windowStore.selectMany(ids, focusId)}
          // Enter on a signed-out (or expired) panel: its log in form, at the password when the email is known.
          onOpen={(id) => {
            if (byId.get(id)?.signedIn === false) windowStore.focusPanel(id, 'logIn');
          }}
          onOpenMenu={(at) => windowStore.openDialog({ kind: 'rowMenu', at })}
          onToggleSection={toggleSection}
          now={now}
          showVersion={sort === 'version'}
          emptyText={
            settling
              ? 'Listing the panels…'
              : attentionOnly && listedQuery.trim() === ''
                ? 'No panel needs attention.'
                : 'No panel matches. Esc in the search box clears it.'
          }
        />
      )}
      <div className="sidebar-footer">
        <button type="button" onClick={onPreferences} disabled={!onPreferences}>
          Preferences
        </button>
        <button type="button" aria-pressed={activityOpen} onClick={() => windowStore.showActivity(!activityOpen)}>
          Activity
        </button>
      </div>
    </nav>
  );
}
