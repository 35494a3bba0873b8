import type { CommandId } from '../../shared/contract/commands.ts';

/** The keys of a keydown the shortcuts read. */
export interface KeyPress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}

/**
 * The window's command for a key press, or null: the same shortcuts the menu shows
 * (shared/contract/commands.ts), for the page itself (the browser, and keys the menu lets through).
 * Ctrl on Windows and Linux, Cmd on macOS; F5 refreshes as in a browser.
 */
export function commandForKey(press: KeyPress, mac: boolean): CommandId | null {
  if (press.key === 'F5' && !press.ctrlKey && !press.metaKey && !press.altKey) return 'refresh';
  const primary = mac ? press.metaKey && !press.ctrlKey : press.ctrlKey && !press.metaKey;
  if (!primary || press.altKey) return null;
  const key = press.key.toLowerCase();
  if (press.shiftKey) return key === 'r' ? 'checkAll' : null;
  switch (key) {
    case 'k':
      return 'palette';
    case 'n':
      return 'addPanel';
    case ',':
      return 'preferences';
    case 'r':
      return 'refresh';
    case 'f':
      return 'find';
    default:
      return null;
  }
}

/** Whether this is a Mac, for Cmd against Ctrl. */
export function isMac(): boolean {
  return /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);
}
