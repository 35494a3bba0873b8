import { isRecord } from '../../shared/guards.ts';
import { utf8Length } from '../ui/json-rows.ts';
import { maskInput } from './secret-mask.ts';

/**
 * What the console remembers across restarts, in the window's own storage (localStorage): per
 * panel, what was called and when; the requests the operator saved by name; answers only when the
 * operator saves one. Never a token: inputs and saved answers are kept with every secret-looking
 * value masked (the answers' rule), and a panel's token never reaches the window at all.
 */

export interface HistoryEntry {
  id: string;
  operation: string;
  /** ISO time the call was sent. */
  at: string;
  /** The panel's HTTP status; null when no answer came (unreachable, refused before sending). */
  status: number | null;
  ok: boolean;
  ms: number | null;
  bytes: number | null;
  /** Why it failed, when it did (never a secret: main's message). */
  message: string | null;
  /** The input sent, secret-looking values masked. */
  input: unknown;
  /** Kept only when the operator saved the answer; masked as the input is. */
  answer?: unknown;
}

export interface SavedRequest {
  id: string;
  name: string;
  operation: string;
  /** Secret-looking values masked: typed again before a run. */
  input: unknown;
}

export interface ConsoleMemory {
  history: Readonly<Record<string, readonly HistoryEntry[]>>;
  saved: readonly SavedRequest[];
}

export const HISTORY_PER_PANEL = 50;
export const HISTORY_PANELS = 200;
export const MAX_SAVED_REQUESTS = 200;
/** An answer larger than this is not kept (the window's storage holds a few MiB in all). */
export const MAX_SAVED_ANSWER_BYTES = 256 * 1024;
/** Answers kept at most across all panels; saving one more lets go of the oldest kept. */
export const MAX_SAVED_ANSWERS = 20;
/** A request's input larger than this is kept without its input (history) or refused (saved). */
export const MAX_INPUT_BYTES = 32 * 1024;

export const EMPTY_MEMORY: ConsoleMemory = { history: {}, saved: [] };

const sizeOf = (value: unknown) => utf8Length(JSON.stringify(value) ?? '');

/** The entry on top of the panel's history; the oldest beyond HISTORY_PER_PANEL go, and the least recent panels beyond HISTORY_PANELS. */
export function addHistory(memory: ConsoleMemory, panelId: string, entry: HistoryEntry): ConsoleMemory {
  const input = maskInput(entry.input);
  const kept: HistoryEntry = { ...entry, input: sizeOf(input) > MAX_INPUT_BYTES ? null : input };
  const list = [kept, ...(memory.history[panelId] ?? [])].slice(0, HISTORY_PER_PANEL);
  const { [panelId]: _old, ...others } = memory.history;
  const panels = Object.entries(others)
    .sort(([, a], [, b]) => (b[0]?.at ?? '').localeCompare(a[0]?.at ?? ''))
    .slice(0, HISTORY_PANELS - 1);
  return { ...memory, history: { [panelId]: list, ...Object.fromEntries(panels) } };
}

/** Keeps an answer with its history entry (masked); a refusal says why. Beyond MAX_SAVED_ANSWERS, the oldest kept answer is let go. */
export function saveAnswer(
  memory: ConsoleMemory,
  panelId: string,
  entryId: string,
  answer: unknown,
): { memory: ConsoleMemory; refused: string | null } {
  const masked = maskInput(answer);
  const bytes = sizeOf(masked);
  if (bytes > MAX_SAVED_ANSWER_BYTES) {
    return {
      memory,
      refused: `This answer is ${Math.ceil(bytes / 1024)} KiB; answers up to ${MAX_SAVED_ANSWER_BYTES / 1024} KiB are kept. Copy it instead.`,
    };
  }
  const history: Record<string, HistoryEntry[]> = {};
  for (const [id, list] of Object.entries(memory.history)) {
    history[id] = list.map((entry) => (id === panelId && entry.id === entryId ? { ...entry, answer: masked } : entry));
  }
  const withAnswers = Object.entries(history)
    .flatMap(([id, list]) => list.filter((entry) => entry.answer !== undefined).map((entry) => ({ id, entry })))
    .sort((a, b) => b.entry.at.localeCompare(a.entry.at));
  for (const { id, entry } of withAnswers.slice(MAX_SAVED_ANSWERS)) {
    history[id] = history[id]!.map((item) => (item === entry ? withoutAnswer(item) : item));
  }
  return { memory: { ...memory, history }, refused: null };
}

function withoutAnswer(entry: HistoryEntry): HistoryEntry {
  const { answer: _answer, ...rest } = entry;
  return rest;
}

/** History of panels no longer in the list goes with them. */
export function forgetPanels(memory: ConsoleMemory, known: ReadonlySet<string>): ConsoleMemory {
  const ids = Object.keys(memory.history);
  if (ids.every((id) => known.has(id))) return memory;
  return { ...memory, history: Object.fromEntries(Object.entries(memory.history).filter(([id]) => known.has(id))) };
}

/** A request saved under `name` (the same name replaces it); refused past the limits. */
export function addSavedRequest(memory: ConsoleMemory, request: SavedRequest): { memory: ConsoleMemory; refused: string | null } {
  const input = maskInput(request.input);
  if (sizeOf(input) > MAX_INPUT_BYTES) return { memory, refused: `The input is over ${MAX_INPUT_BYTES / 1024} KiB: too large to save.` };
  const others = memory.saved.filter((saved) => saved.name !== request.name);
  if (others.length >= MAX_SAVED_REQUESTS)
    return { memory, refused: `${MAX_SAVED_REQUESTS} requests are saved already: delete some first.` };
  return { memory: { ...memory, saved: [...others, { ...request, input }].sort((a, b) => a.name.localeCompare(b.name)) }, refused: null };
}

export function removeSavedRequest(memory: ConsoleMemory, id: string): ConsoleMemory {
  return { ...memory, saved: memory.saved.filter((saved) => saved.id !== id) };
}

/** What was kept, checked as anything read back must be; entries not understood are left out. */
export function readConsoleMemory(text: string | null): ConsoleMemory {
  let value: unknown;
  try {
    value = JSON.parse(text ?? 'null');
  } catch {
    return EMPTY_MEMORY;
  }
  if (!isRecord(value) || value.version !== 1) return EMPTY_MEMORY;
  const history: Record<string, HistoryEntry[]> = {};
  if (isRecord(value.history)) {
    for (const [panelId, list] of Object.entries(value.history).slice(0, HISTORY_PANELS)) {
      if (Array.isArray(list)) history[panelId] = list.filter(isHistoryEntry).slice(0, HISTORY_PER_PANEL);
    }
  }
  const saved = Array.isArray(value.saved) ? value.saved.filter(isSavedRequest).slice(0, MAX_SAVED_REQUESTS) : [];
  return { history, saved };
}

export function writeConsoleMemory(memory: ConsoleMemory): string {
  return JSON.stringify({ version: 1, ...memory });
}

const isText = (value: unknown, max = 500): value is string => typeof value === 'string' && value.length > 0 && value.length <= max;
const isCount = (value: unknown) => value === null || (typeof value === 'number' && Number.isFinite(value));

function isHistoryEntry(value: unknown): value is HistoryEntry {
  return (
    isRecord(value) &&
    isText(value.id) &&
    isText(value.operation) &&
    isText(value.at, 40) &&
    isCount(value.status) &&
    typeof value.ok === 'boolean' &&
    isCount(value.ms) &&
    isCount(value.bytes) &&
    (value.message === null || typeof value.message === 'string')
  );
}

export function isSavedRequest(value: unknown): value is SavedRequest {
  return isRecord(value) && isText(value.id) && isText(value.name, 200) && isText(value.operation) && 'input' in value;
}
