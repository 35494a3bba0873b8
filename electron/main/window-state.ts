import { statSync } from 'node:fs';
import { jsonFileStore, PRIVATE_FILE_MODE } from '../core/index.ts';
import { isRecord } from '../../shared/guards.ts';

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The part of Electron's `Display` read here. */
export interface DisplayLike {
  readonly workArea: Rect;
}

export interface Size {
  width: number;
  height: number;
}

/** What goes into the BrowserWindow options: no position means "let the OS centre it". */
export interface RestoredBounds {
  x?: number;
  y?: number;
  width: number;
  height: number;
  maximized: boolean;
}

/** What is saved on close: the normal (unmaximized) bounds, and whether it was maximized. */
export interface SavedWindowState extends Rect {
  maximized: boolean;
}

export const DEFAULT_SIZE: Size = { width: 1200, height: 800 };
export const MIN_SIZE: Size = { width: 900, height: 600 };
/** A window showing less than this on every display cannot be grabbed: it counts as off-screen. */
const MIN_VISIBLE: Size = { width: 100, height: 50 };

/**
 * The bounds to open the window with, from whatever was saved (anything, checked here). The size
 * is kept between the minimum and the display's work area; the position only when the window
 * would still show on a display (a monitor may have been unplugged since). `displays[0]` is the
 * primary display.
 */
export function restoreBounds(saved: unknown, displays: readonly DisplayLike[], defaults: Size = DEFAULT_SIZE): RestoredBounds {
  const state = isRecord(saved) ? saved : {};
  const maximized = state.maximized === true;
  const hasSize = isSize(state.width) && isSize(state.height);
  const width = Math.max(MIN_SIZE.width, Math.round(hasSize ? (state.width as number) : defaults.width));
  const height = Math.max(MIN_SIZE.height, Math.round(hasSize ? (state.height as number) : defaults.height));

  let position: { x: number; y: number } | null = null;
  let display = displays[0];
  if (hasSize && isCoordinate(state.x) && isCoordinate(state.y)) {
    const rect = { x: Math.round(state.x), y: Math.round(state.y), width, height };
    const showing = mostVisibleOn(rect, displays);
    if (showing) {
      position = { x: rect.x, y: rect.y };
      display = showing;
    }
  }
  const area = display?.workArea;
  const size = {
    width: area ? Math.max(MIN_SIZE.width, Math.min(width, area.width)) : width,
    height: area ? Math.max(MIN_SIZE.height, Math.min(height, area.height)) : height,
  };
  return position ? { ...position, ...size, maximized } : { ...size, maximized };
}

/** The display the rectangle overlaps most, if it overlaps one by at least MIN_VISIBLE. */
function mostVisibleOn(rect: Rect, displays: readonly DisplayLike[]): DisplayLike | null {
  let best: DisplayLike | null = null;
  let bestArea = 0;
  for (const display of displays) {
    const overlap = intersection(rect, display.workArea);
    if (overlap.width < MIN_VISIBLE.width || overlap.height < MIN_VISIBLE.height) continue;
    const area = overlap.width * overlap.height;
    if (area > bestArea) {
      best = display;
      bestArea = area;
    }
  }
  return best;
}

function intersection(a: Rect, b: Rect): Size {
  return {
    width: Math.max(0, Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x)),
    height: Math.max(0, Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y)),
  };
}

function isSize(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0;
}

function isCoordinate(value: unknown): value is number {
  // Far beyond any desktop: such a value is damage, not a position.
  return typeof value === 'number' && Number.isFinite(value) && Math.abs(value) < 1e6;
}

export interface WindowStateFile {
  /** The saved value, unchecked (give it to `restoreBounds`), or null when there is none readable. */
  load(): unknown;
  /** Writes atomically, without holding main up; false when it could not (losing window bounds must not stop a close). */
  save(state: SavedWindowState): Promise<boolean>;
  /** Resolves once the saves started so far are done: before the app exits. */
  flush(): Promise<void>;
}

const MAX_FILE_BYTES = 64 * 1024;

/** The window state in a small JSON file, read at start and saved on 'close', which may come just before the app quits: see `flush`. */
export function windowStateFile(path: string): WindowStateFile {
  const store = jsonFileStore(path, { mode: PRIVATE_FILE_MODE });
  let last: Promise<unknown> = Promise.resolve();
  return {
    load: () => {
      try {
        // Throws when there is no file yet. Damage can make it any size; bounds are a few dozen bytes.
        return statSync(path).size > MAX_FILE_BYTES ? null : store.read();
      } catch {
        return null;
      }
    },
    save: (state) => {
      const { x, y, width, height, maximized } = state;
      const saving = store
        .save(null, () => ({ x, y, width, height, maximized }))
        .then(
          () => true,
          () => false,
        );
      last = saving;
      return saving;
    },
    flush: async () => {
      await last;
    },
  };
}
