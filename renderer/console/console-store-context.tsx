import { createContext, use, useEffect, useState, type ReactNode } from 'react';
import type { SessionMemory } from '../window/window-memory.ts';
import { useWindowContext } from '../window/app-context.tsx';
import { ConsoleStore } from './console-store.ts';

const Context = createContext<ConsoleStore | null>(null);

/** The page's localStorage, or null where the page has none it may use. */
function pageLocalMemory(): SessionMemory | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/** The API console's history and saved requests (the window's localStorage; never a token), for every console below. */
export function ConsoleStoreProvider({ children }: { children: ReactNode }) {
  const { panelStore } = useWindowContext();
  const [store] = useState(() => new ConsoleStore(pageLocalMemory()));
  // The history of a panel removed goes with it (once the list is known: an empty first list removes nothing).
  useEffect(() => {
    const keep = () => {
      const { panels } = panelStore.getSnapshot();
      if (panels !== null) store.keepPanels(new Set(panels.map((panel) => panel.id)));
    };
    keep();
    return panelStore.subscribe(keep);
  }, [panelStore, store]);
  return <Context value={store}>{children}</Context>;
}

export function useConsoleStore(): ConsoleStore {
  const store = use(Context);
  if (!store) throw new Error('A console was rendered outside ConsoleStoreProvider.');
  return store;
}
