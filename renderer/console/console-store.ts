import type { SessionMemory } from '../window/window-memory.ts';
import {
  addHistory,
  addSavedRequest,
  type ConsoleMemory,
  forgetPanels,
  type HistoryEntry,
  readConsoleMemory,
  removeSavedRequest,
  type SavedRequest,
  saveAnswer,
  writeConsoleMemory,
} from './console-memory.ts';

const KEY = 'paneldeck.console';

/**
 * The console's history and saved requests, kept in the page's localStorage (the window's own
 * storage: no token ever reaches the window, and inputs and answers are masked before they are
 * kept). Read with `useSyncExternalStore(store.subscribe, store.getSnapshot)`.
 */
export class ConsoleStore {
  #memory: ConsoleMemory;
  readonly #storage: SessionMemory | null;
  readonly #listeners = new Set<() => void>();

  constructor(storage: SessionMemory | null) {
    this.#storage = storage;
    let text: string | null = null;
    try {
      text = storage?.getItem(KEY) ?? null;
    } catch {
      // Refused storage: the console starts empty and keeps what it can for this window's life.
    }
    this.#memory = readConsoleMemory(text);
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  };

  readonly getSnapshot = (): ConsoleMemory => this.#memory;

  record(panelId: string, entry: HistoryEntry): void {
    this.#set(addHistory(this.#memory, panelId, entry));
  }

  /** Keeps the answer of a history entry; the reason when it is not kept. */
  saveAnswer(panelId: string, entryId: string, answer: unknown): string | null {
    const { memory, refused } = saveAnswer(this.#memory, panelId, entryId, answer);
    this.#set(memory);
    return refused;
  }

  saveRequest(request: SavedRequest): string | null {
    const { memory, refused } = addSavedRequest(this.#memory, request);
    this.#set(memory);
    return refused;
  }

  /** Adds imported requests one by one; the reasons of those not kept. */
  importRequests(requests: readonly Omit<SavedRequest, 'id'>[]): string[] {
    const refusals: string[] = [];
    let memory = this.#memory;
    for (const request of requests) {
      const added = addSavedRequest(memory, { ...request, id: crypto.randomUUID() });
      if (added.refused) refusals.push(`${request.name}: ${added.refused}`);
      memory = added.memory;
    }
    this.#set(memory);
    return refusals;
  }

  removeRequest(id: string): void {
    this.#set(removeSavedRequest(this.#memory, id));
  }

  /** The panel list as main has it: the history of removed panels goes. */
  keepPanels(known: ReadonlySet<string>): void {
    this.#set(forgetPanels(this.#memory, known));
  }

  #set(memory: ConsoleMemory): void {
    if (memory === this.#memory) return;
    this.#memory = memory;
    try {
      this.#storage?.setItem(KEY, writeConsoleMemory(memory));
    } catch {
      // Full or refused: the console goes on with what it has in memory.
    }
    for (const listener of [...this.#listeners]) listener();
  }
}
