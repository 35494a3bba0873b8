import { useEffect, useMemo, useRef, useState } from 'react';
import type { PanelApi } from '../../shared/contract.ts';
import type { ErrorInfo } from '../../shared/errors.ts';
import type { Panel } from '../../shared/types.ts';
import { fleetView, STATUS_NAMES, STATUS_ORDER } from '../fleet-view.ts';
import { failureInfo } from '../panel-api.ts';
import type { CheckProgress } from '../panel-store.ts';
import { useNow } from '../use-now.ts';
import { PanelList } from './panel-list.tsx';

interface SidebarProps {
  api: PanelApi;
  panels: readonly Panel[];
  selectedId: string | null;
  /** The check pass under way in main (the operator's or the background's), or null. */
  progress: CheckProgress | null;
  onSelect(id: string): void;
  onAdd(): void;
  /** Absent while the app's status is not known yet. */
  onPreferences?: () => void;
}

/** A relative time is shown in minutes: a tick twice a minute keeps it right. */
const CLOCK_TICK_MS = 30_000;

/** The fleet at a glance: find, counts per state, the attention filter, Check all, and the list. */
export function Sidebar({ api, panels, selectedId, progress, onSelect, onAdd, onPreferences }: SidebarProps) {
  const [query, setQuery] = useState('');
  const [attentionOnly, setAttentionOnly] = useState(false);
  const [checkError, setCheckError] = useState<ErrorInfo | null>(null);
  const search = useRef<HTMLInputElement>(null);
  const searchText = useRef(new WeakMap<Panel, string>());
  const now = useNow(CLOCK_TICK_MS);
  const view = useMemo(() => fleetView(panels, { query, attentionOnly }, searchText.current), [panels, query, attentionOnly]);
  const filtered = query.trim() !== '' || attentionOnly;

  // Ctrl+F (Cmd+F) and "/" go to the search box, as in a browser and in most list tools.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const typing = event.target instanceof HTMLElement && event.target.closest('input, textarea, select, [contenteditable="true"], dialog') !== null;
      const find = (event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === 'f';
      if (find || (event.key === '/' && !typing && !event.ctrlKey && !event.metaKey && !event.altKey)) {
        event.preventDefault();
        search.current?.focus();
        search.current?.select();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const checkAll = async () => {
    setCheckError(null);
    try {
      await api.checkPanels();
    } catch (caught) {
      setCheckError(failureInfo(caught));
    }
  };
  const cancel = () => void api.cancelChecks().catch((caught: unknown) => setCheckError(failureInfo(caught)));
  const signedIn = panels.some((panel) => panel.signedIn);

  return (
    <nav className="sidebar" aria-label="Panels">
      <div className="sidebar-header">
        <span className="brand">Paneldeck</span>
        <button type="button" className="button-primary" onClick={onAdd}>
          Add panel
        </button>
      </div>
      {panels.length > 0 && (
        <div className="fleet-tools">
          <div className="fleet-search">
            <input
              ref={search}
              type="search"
              aria-label="Find panels"
              placeholder="Find panels  (Ctrl+F)"
              value={query}
              onChange={(event) => setQuery(event.target.value)}
              onKeyDown={(event) => {
                if (event.key === 'Escape' && query !== '') {
                  event.preventDefault();
                  setQuery('');
                }
              }}
            />
          </div>
          <p className="fleet-counts" aria-label="Panels by state">
            {STATUS_ORDER.filter((kind) => view.counts[kind] > 0).map((kind) => (
              <span key={kind} className="fleet-count">
                <span className={`status-dot status-${kind}`} aria-hidden="true" />
                {view.counts[kind]} {STATUS_NAMES[kind].toLowerCase()}
              </span>
            ))}
          </p>
          <div className="fleet-actions">
            <button type="button" className="button-small" aria-pressed={attentionOnly} onClick={() => setAttentionOnly(!attentionOnly)}>
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
              <button type="button" className="button-small" disabled={!signedIn} onClick={() => void checkAll()} title={signedIn ? undefined : 'No panel is signed in'}>
                Check all
              </button>
            )}
          </div>
          {checkError && <p className="field-error">{checkError.message}</p>}
          <p className="fleet-matches muted" role="status">
            {filtered ? `${view.rows.length} of ${panels.length} panels` : ''}
          </p>
        </div>
      )}
      {panels.length > 0 && (
        <PanelList
          rows={view.rows}
          selectedId={selectedId}
          onSelect={onSelect}
          now={now}
          emptyText={attentionOnly && query.trim() === '' ? 'No panel needs attention.' : 'No panel matches. Esc in the search box clears it.'}
        />
      )}
      <div className="sidebar-footer">
        <button type="button" onClick={onPreferences} disabled={!onPreferences}>
          Preferences
        </button>
      </div>
    </nav>
  );
}
