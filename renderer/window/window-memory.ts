import { isRecord } from '../../shared/guards.ts';

/** The part of the page's `sessionStorage` used here (free of the DOM's types: tests pass a Map-backed stand-in). */
export interface SessionMemory {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

/**
 * What the window keeps across a reload of the page (not across a restart of Paneldeck): main
 * says an update is downloaded once, and the operator put notices away once. Only these: never a
 * panel, an address, a token or anything typed.
 */
export interface WindowMemory {
  update: { version: string; dismissed: boolean } | null;
  startupProblemsDismissed: boolean;
}

const KEY = 'paneldeck.window';
/** As shared/contract/events.ts lets a version through: text, and short. */
const MAX_VERSION_LENGTH = 100;
const NOTHING: WindowMemory = { update: null, startupProblemsDismissed: false };

/** What was kept, checked as anything read back must be; nothing when it is missing or not understood. */
export function readWindowMemory(memory: SessionMemory | null): WindowMemory {
  let value: unknown;
  try {
    value = JSON.parse(memory?.getItem(KEY) ?? 'null');
  } catch {
    return NOTHING;
  }
  if (!isRecord(value)) return NOTHING;
  return { update: readUpdate(value.update), startupProblemsDismissed: value.startupProblemsDismissed === true };
}

function readUpdate(update: unknown): WindowMemory['update'] {
  if (!isRecord(update)) return null;
  const { version, dismissed } = update;
  if (typeof version !== 'string' || version.length > MAX_VERSION_LENGTH || typeof dismissed !== 'boolean') return null;
  return { version, dismissed };
}

export function writeWindowMemory(memory: SessionMemory | null, value: WindowMemory): void {
  try {
    memory?.setItem(KEY, JSON.stringify(value));
  } catch {
    // Full or refused: only a reload's convenience is lost.
  }
}
