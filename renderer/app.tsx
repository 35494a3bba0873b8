import { useCallback, useEffect, useRef, useState } from 'react';
import type { PanelApi } from '../shared/contract.ts';
import type { ErrorInfo } from '../shared/errors.ts';
import type { AppStatus, Panel } from '../shared/types.ts';
import { AddPanelDialog } from './components/add-panel-dialog.tsx';
import { EmptyState } from './components/empty-state.tsx';
import { ErrorBoundary } from './components/error-boundary.tsx';
import { PanelView } from './components/panel-view.tsx';
import { PreferencesDialog } from './components/preferences-dialog.tsx';
import { Sidebar } from './components/sidebar.tsx';
import { StartupProblems } from './components/startup-problems.tsx';
import { failureInfo } from './panel-api.ts';

/** The window: the panel list on the left, the selected panel on the right. */
export function App({ api }: { api: PanelApi | null }) {
  if (!api) {
    return (
      <main className="fatal" role="alert">
        <h1>Paneldeck could not start</h1>
        <p>The connection between this window and Paneldeck is missing. Quit Paneldeck and open it again.</p>
      </main>
    );
  }
  return <Workspace api={api} />;
}

function Workspace({ api }: { api: PanelApi }) {
  const [panels, setPanels] = useState<Panel[] | null>(null);
  const [loadError, setLoadError] = useState<ErrorInfo | null>(null);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  const [status, setStatus] = useState<AppStatus | null>(null);
  const [problemsDismissed, setProblemsDismissed] = useState(false);
  const [preferencesOpen, setPreferencesOpen] = useState(false);

  const reload = useCallback(async () => {
    try {
      const list = await api.listPanels();
      setPanels(list);
      setLoadError(null);
      setSelectedId((current) => (current && list.some((panel) => panel.id === current) ? current : (list[0]?.id ?? null)));
    } catch (caught) {
      setLoadError(failureInfo(caught));
    }
  }, [api]);

  useEffect(() => {
    void reload();
  }, [reload]);

  useEffect(() => {
    // The status only adds notices and preferences: without it the panels still work.
    api.getAppStatus().then(setStatus, () => setStatus(null));
  }, [api]);

  const statusChanged = (next: AppStatus) => {
    setStatus(next);
    // Where each signed-in panel's token is kept may have changed with the setting.
    void reload();
  };

  const replacePanel = useCallback((updated: Panel) => {
    setPanels((list) => list?.map((panel) => (panel.id === updated.id ? updated : panel)) ?? [updated]);
  }, []);

  const added = (panel: Panel) => {
    setAdding(false);
    setPanels((list) => [...(list ?? []), panel]);
    setSelectedId(panel.id);
  };

  const removed = (id: string) => {
    setPanels((list) => {
      const rest = (list ?? []).filter((panel) => panel.id !== id);
      setSelectedId(rest[0]?.id ?? null);
      return rest;
    });
    focusAfterRemove.current = true;
  };

  // The removed panel's view went with the focus in it: give it to the panel now selected, or to Add panel.
  const focusAfterRemove = useRef(false);
  useEffect(() => {
    if (!focusAfterRemove.current) return;
    focusAfterRemove.current = false;
    const next = document.querySelector<HTMLElement>('.panel-item[aria-current="page"]') ?? document.querySelector<HTMLElement>('.sidebar-header button');
    next?.focus();
  }, [panels]);

  const selected = panels?.find((panel) => panel.id === selectedId) ?? null;
  return (
    <div className="workspace">
      <Sidebar
        panels={panels ?? []}
        selectedId={selectedId}
        onSelect={setSelectedId}
        onAdd={() => setAdding(true)}
        onPreferences={status ? () => setPreferencesOpen(true) : undefined}
      />
      <main className="content">
        {status && !problemsDismissed && <StartupProblems problems={status.startupProblems} onDismiss={() => setProblemsDismissed(true)} />}
        {loadError ? (
          <div className="notice notice-error" role="alert">
            <p>{loadError.message}</p>
            <button type="button" onClick={() => void reload()}>
              Try again
            </button>
          </div>
        ) : panels === null ? (
          <p className="muted" role="status">
            Loading panels…
          </p>
        ) : selected ? (
          // A panel whose view fails to render must not take the sidebar with it; a new selection resets.
          <ErrorBoundary key={selected.id}>
            <PanelView api={api} panel={selected} onPanelChanged={replacePanel} onRemoved={removed} onStale={reload} />
          </ErrorBoundary>
        ) : (
          <EmptyState onAdd={() => setAdding(true)} />
        )}
      </main>
      {adding && <AddPanelDialog api={api} onAdded={added} onClose={() => setAdding(false)} />}
      {preferencesOpen && status && (
        <PreferencesDialog api={api} status={status} onChanged={statusChanged} onClose={() => setPreferencesOpen(false)} />
      )}
    </div>
  );
}
