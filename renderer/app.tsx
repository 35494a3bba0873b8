import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import type { PanelBridge } from '../shared/bridge.ts';
import type { CommandId } from '../shared/commands.ts';
import { plural } from '../shared/counts.ts';
import type { ErrorInfo } from '../shared/errors.ts';
import { DEFAULT_SETTINGS, MAX_COLLAPSED_GROUPS } from '../shared/settings.ts';
import type { AppStatus, BoardView, Panel } from '../shared/types.ts';
import { AddPanelDialog } from './components/add-panel-dialog.tsx';
import { BulkView } from './components/bulk-view.tsx';
import { CommandPalette } from './components/command-palette.tsx';
import { EmptyState } from './components/empty-state.tsx';
import { ErrorBoundary } from './components/error-boundary.tsx';
import { ImportDialog } from './components/import-dialog.tsx';
import { PanelView } from './components/panel-view.tsx';
import { PreferencesDialog } from './components/preferences-dialog.tsx';
import { RowMenu } from './components/row-menu.tsx';
import { Sidebar } from './components/sidebar.tsx';
import { StartupProblems } from './components/startup-problems.tsx';
import { UpdateNotice } from './components/update-notice.tsx';
import { failureInfo } from './panel-api.ts';
import { PanelStore } from './panel-store.ts';
import { commandForKey, isMac } from './shortcuts.ts';
import { useTheme } from './theme.ts';
import type { CommandRequest } from './command-request.ts';
import { availableCommands, importedText, rowMenuItems } from './selection-commands.ts';

/** What of the list's view the sidebar changes; the selection is the window's. */
type ListView = Pick<BoardView, 'sort' | 'attentionOnly' | 'collapsedGroups'>;

function listView({ sort, attentionOnly, collapsedGroups }: BoardView): ListView {
  return { sort, attentionOnly, collapsedGroups };
}

const VIEW_SAVE_DELAY_MS = 1000;
const NO_PANELS: ReadonlySet<string> = new Set();

/** The window: the panel list on the left, the selected panel on the right. */
export function App({ api }: { api: PanelBridge | null }) {
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

function Workspace({ api }: { api: PanelBridge }) {
  // One store per window: main's list once, then its events; never a re-read after an action.
  const [store] = useState(() => new PanelStore());
  const { panels, byId, expiring, progress } = useSyncExternalStore(store.subscribe, store.getSnapshot);
  const [loadError, setLoadError] = useState<ErrorInfo | null>(null);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  /** Two or more panels selected together (Shift/Ctrl click, Shift+arrows); empty when one is. */
  const [marked, setMarked] = useState<ReadonlySet<string>>(NO_PANELS);
  const [menuAt, setMenuAt] = useState<{ x: number; y: number } | null>(null);
  const [adding, setAdding] = useState(false);
  const [copyOf, setCopyOf] = useState<Panel | null>(null);
  const [importing, setImporting] = useState(false);
  const [status, setStatus] = useState<AppStatus | null>(null);
  const [problemsDismissed, setProblemsDismissed] = useState(false);
  const [preferencesOpen, setPreferencesOpen] = useState(false);
  const [board, setBoard] = useState<ListView>(() => listView(DEFAULT_SETTINGS.boardView));
  const [paletteOpen, setPaletteOpen] = useState(false);
  /** The last command for the list or the panel view to carry out (they watch its `seq`). */
  const [request, setRequest] = useState<CommandRequest | null>(null);
  useTheme(status?.settings.theme ?? 'system');
  const statusRef = useRef(status);
  statusRef.current = status;
  const viewAdopted = useRef(false);
  const viewTouched = useRef(false);

  const load = useCallback(async () => {
    try {
      store.load(await api.listPanels());
      setLoadError(null);
    } catch (caught) {
      setLoadError(failureInfo(caught));
    }
  }, [api, store]);

  // What an export or an import did, until dismissed.
  const [transferNotice, setTransferNotice] = useState<{ text: string; failed: boolean } | null>(null);
  const exportPanels = useCallback(
    async (ids?: readonly string[]) => {
      try {
        const { path, count } = await api.exportPanels(ids ? [...ids] : undefined);
        if (path !== null)
          setTransferNotice({
            text: `Exported ${plural(count, 'panel')} to ${path}. The file holds no token, password or email.`,
            failed: false,
          });
      } catch (caught) {
        setTransferNotice({ text: failureInfo(caught).message, failed: true });
      }
    },
    [api],
  );

  const selectOne = useCallback((id: string) => {
    setSelectedId(id);
    setMarked(NO_PANELS);
  }, []);
  const selectMany = useCallback((ids: readonly string[], focusId: string) => {
    setSelectedId(focusId);
    setMarked(ids.length > 1 ? new Set(ids) : NO_PANELS);
  }, []);
  const selectedRef = useRef<Panel | null>(null);

  /** Runs a command from the menu, a shortcut, the palette or the row menu. */
  const run = useCallback(
    (command: CommandId) => {
      switch (command) {
        case 'addPanel':
          return setAdding(true);
        case 'importPanels':
          return setImporting(true);
        case 'duplicatePanel':
          if (selectedRef.current) setCopyOf(selectedRef.current);
          return;
        case 'preferences':
          if (statusRef.current) setPreferencesOpen(true);
          return;
        case 'palette':
          return setPaletteOpen(true);
        case 'exportPanels':
          return void exportPanels();
        default:
          setRequest((last) => ({ command, seq: (last?.seq ?? 0) + 1 }));
      }
    },
    [exportPanels],
  );

  // The shortcuts the menu shows, for the page itself; none while a dialog is open over it.
  useEffect(() => {
    const mac = isMac();
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || document.querySelector('dialog[open]')) return;
      const command = commandForKey(event, mac);
      if (!command) return;
      event.preventDefault();
      run(command);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [run]);

  useEffect(() => {
    // Listening before asking for the list: an event sent meanwhile is older than the list, never lost.
    const stop = api.onEvent((event) => {
      store.apply(event);
      if (event.type === 'focusPanel' && store.has(event.panelId)) selectOne(event.panelId);
      if (event.type === 'runCommand' && !document.querySelector('dialog[open]')) run(event.command);
    });
    void load();
    return stop;
  }, [api, store, load, run, selectOne]);

  useEffect(() => {
    // The status only adds notices and preferences: without it the panels still work.
    api.getAppStatus().then(setStatus, () => setStatus(null));
  }, [api]);

  // The list as the operator left it: adopted once the settings arrive, unless already changed here.
  useEffect(() => {
    if (!status || viewAdopted.current) return;
    viewAdopted.current = true;
    const remembered = status.settings.boardView;
    if (!viewTouched.current) {
      setBoard(listView(remembered));
      setSelectedId((current) => current ?? remembered.selectedPanelId);
    }
  }, [status]);
  const changeView = useCallback((change: Partial<ListView>) => {
    viewTouched.current = true;
    setBoard((current) => ({ ...current, ...change }));
  }, []);

  const panelChanged = useCallback((updated: Panel) => store.upsert(updated), [store]);

  const closeAddDialog = () => {
    setAdding(false);
    setCopyOf(null);
  };
  const added = (panel: Panel) => {
    closeAddDialog();
    store.upsert(panel);
    selectOne(panel.id);
  };

  // The removed panel's view went with the focus in it: give it to the panel now selected, or to Add panel.
  const focusAfterRemove = useRef(false);
  const removed = useCallback(
    (ids: string | readonly string[]) => {
      for (const id of typeof ids === 'string' ? [ids] : ids) store.remove(id);
      setMarked(NO_PANELS);
      focusAfterRemove.current = true;
    },
    [store],
  );
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the list changes, which is when a removal shows
  useEffect(() => {
    if (!focusAfterRemove.current) return;
    focusAfterRemove.current = false;
    const next =
      document.querySelector<HTMLElement>('.panel-list[role="tree"]') ?? document.querySelector<HTMLElement>('.sidebar-header button');
    next?.focus();
  }, [panels]);

  // A selection that is gone (removed here or elsewhere) falls back to the first panel.
  const selected = (selectedId !== null ? byId.get(selectedId) : undefined) ?? panels?.[0] ?? null;
  selectedRef.current = selected;
  const selectedPanelId = selected?.id ?? null;
  // In the list's order; panels removed meanwhile drop out.
  const markedPanels = useMemo(() => (marked.size > 1 ? (panels ?? []).filter((panel) => marked.has(panel.id)) : []), [panels, marked]);
  const groups = useMemo(
    () => [...new Set((panels ?? []).flatMap((panel) => (panel.group === null ? [] : [panel.group])))].sort(),
    [panels],
  );
  // Read when the view is saved; a change of the groups alone is no reason to save it.
  const groupsRef = useRef(groups);
  groupsRef.current = groups;

  // Saved a moment after the last change: walking the list with the arrow keys writes once.
  useEffect(() => {
    if (!viewAdopted.current) return;
    const timer = setTimeout(() => {
      // Only how the list looked is lost if this fails; nothing to tell the operator.
      // Folded groups that no longer exist (renamed, emptied) are not kept, so the list stays small.
      const known = new Set(groupsRef.current);
      const collapsedGroups = board.collapsedGroups
        .filter((key) => key.startsWith('\u0000') || known.has(key))
        .slice(0, MAX_COLLAPSED_GROUPS);
      api.updateSettings({ boardView: { ...board, collapsedGroups, selectedPanelId } }).catch(() => undefined);
    }, VIEW_SAVE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [api, board, selectedPanelId]);
  return (
    <div className="workspace">
      <Sidebar
        api={api}
        request={request}
        panels={panels ?? []}
        progress={progress}
        view={board}
        onViewChange={changeView}
        selectedId={selected?.id ?? null}
        onSelect={selectOne}
        marked={marked}
        onMark={selectMany}
        onOpenMenu={setMenuAt}
        onAdd={() => setAdding(true)}
        onPreferences={status ? () => setPreferencesOpen(true) : undefined}
      />
      <main className="content">
        <UpdateNotice api={api} />
        {transferNotice && (
          <div
            className={`notice ${transferNotice.failed ? 'notice-error' : 'notice-info'}`}
            role={transferNotice.failed ? 'alert' : 'status'}
          >
            <p>{transferNotice.text}</p>
            <button type="button" onClick={() => setTransferNotice(null)}>
              Dismiss
            </button>
          </div>
        )}
        {status && !problemsDismissed && <StartupProblems problems={status.startupProblems} onDismiss={() => setProblemsDismissed(true)} />}
        {loadError ? (
          <div className="notice notice-error" role="alert">
            <p>{loadError.message}</p>
            <button type="button" onClick={() => void load()}>
              Try again
            </button>
          </div>
        ) : panels === null ? (
          <p className="muted" role="status">
            Loading panels…
          </p>
        ) : markedPanels.length > 1 ? (
          <BulkView
            api={api}
            panels={markedPanels}
            groups={groups}
            request={request}
            onChanged={(changed) => changed.forEach(panelChanged)}
            onRemoved={removed}
            onExport={(ids) => void exportPanels(ids)}
            onClear={() => selected && selectOne(selected.id)}
          />
        ) : selected ? (
          // A panel whose view fails to render must not take the sidebar with it; a new selection resets.
          <ErrorBoundary key={selected.id}>
            <PanelView
              api={api}
              panel={selected}
              request={request}
              expiresSoonAt={expiring.get(selected.id) ?? null}
              groups={groups}
              defaultEmail={status?.settings.defaultEmail ?? null}
              onPanelChanged={panelChanged}
              onRemoved={removed}
            />
          </ErrorBoundary>
        ) : (
          <EmptyState onAdd={() => setAdding(true)} onImport={() => setImporting(true)} />
        )}
      </main>
      {paletteOpen && (
        <CommandPalette
          panels={panels ?? []}
          commands={availableCommands(selected, markedPanels, panels ?? [], status !== null)}
          mac={isMac()}
          onSelectPanel={selectOne}
          onRun={run}
          onClose={() => setPaletteOpen(false)}
        />
      )}
      {menuAt && selected && (
        <RowMenu
          at={menuAt}
          label={markedPanels.length > 1 ? `${markedPanels.length} panels` : selected.name}
          items={rowMenuItems(selected, markedPanels)}
          onRun={run}
          onClose={() => setMenuAt(null)}
        />
      )}
      {(adding || copyOf) && <AddPanelDialog api={api} copyOf={copyOf ?? undefined} onAdded={added} onClose={closeAddDialog} />}
      {importing && (
        <ImportDialog
          api={api}
          onImported={(result) => {
            setImporting(false);
            setTransferNotice({ text: importedText(result), failed: false });
          }}
          onClose={() => setImporting(false)}
        />
      )}
      {preferencesOpen && status && (
        // The panels whose token storage a setting moved come back as events.
        <PreferencesDialog api={api} status={status} onChanged={setStatus} onClose={() => setPreferencesOpen(false)} />
      )}
    </div>
  );
}
