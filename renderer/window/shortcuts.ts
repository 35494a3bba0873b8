import { COMMAND_IDS, COMMANDS, type CommandId } from '../../shared/contract/commands.ts';

/** The keys of a keydown the shortcuts read. */
export interface KeyPress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}

/** A command's accelerator ("CmdOrCtrl+Shift+R") as the page matches it: with Shift or not, and the key. */
const withShortcut = COMMAND_IDS.flatMap((id) => {
  const accelerator = COMMANDS[id].accelerator;
  if (!accelerator) return [];
  const parts = accelerator.split('+');
  return [{ id, shift: parts.includes('Shift'), key: parts.at(-1)!.toLowerCase() }];
});

/**
 * The window's command for a key press, or null: the same shortcuts the menu shows
 * (shared/contract/commands.ts, read from there), for the page itself (the browser, and keys the
 * menu lets through). Ctrl on Windows and Linux, Cmd on macOS; F5 refreshes as in a browser.
 */
export function commandForKey(press: KeyPress, mac: boolean): CommandId | null {
  if (press.key === 'F5' && !press.ctrlKey && !press.metaKey && !press.altKey) return 'refresh';
  const primary = mac ? press.metaKey && !press.ctrlKey : press.ctrlKey && !press.metaKey;
  if (!primary || press.altKey) return null;
  const key = press.key.toLowerCase();
  return withShortcut.find((shortcut) => shortcut.shift === press.shiftKey && shortcut.key === key)?.id ?? null;
}

/** Whether this is a Mac, for Cmd against Ctrl. */
export function isMac(): boolean {
  return /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);
}
