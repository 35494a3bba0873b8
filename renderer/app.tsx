import { useCallback, useEffect, useState } from 'react';
import type { PanelApi } from '../shared/contract.ts';
import type { ErrorInfo } from '../shared/errors.ts';
import type { Panel } from '../shared/types.ts';
import { AddPanelDialog } from './components/add-panel-dialog.tsx';
import { EmptyState } from './components/empty-state.tsx';
import { PanelView } from './components/panel-view.tsx';
import { Sidebar } from './components/sidebar.tsx';
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
  };

  const selected = panels?.find((panel) => panel.id === selectedId) ?? null;
  return (
    <div className="workspace">
      <Sidebar panels={panels ?? []} selectedId={selectedId} onSelect={setSelectedId} onAdd={() => setAdding(true)} />
      <main className="content">
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
          <PanelView key={selected.id} api={api} panel={selected} onPanelChanged={replacePanel} onRemoved={removed} onStale={reload} />
        ) : (
          <EmptyState onAdd={() => setAdding(true)} />
        )}
      </main>
      {adding && <AddPanelDialog api={api} onAdded={added} onClose={() => setAdding(false)} />}
    </div>
  );
}
