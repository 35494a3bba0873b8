import { BrowserWindow, nativeTheme, screen } from 'electron';
import { newMainWindow } from './main-window-options.ts';
import { restoreBounds, type DisplayLike, type WindowStateFile } from './window-state.ts';

export interface MainWindowDeps {
  entryUrl: string;
  preloadPath: string;
  isPackaged: boolean;
  stateFile: WindowStateFile;
}

/**
 * Opens the main window where it was last (if that is still on a screen), shows it once it has
 * painted, and remembers its bounds on close. Navigation and permissions are locked down for
 * every WebContents in main.ts, this one included.
 */
export function createMainWindow({ entryUrl, preloadPath, isPackaged, stateFile }: MainWindowDeps): BrowserWindow {
  const bounds = restoreBounds(stateFile.load(), displaysPrimaryFirst());
  const window = newMainWindow(BrowserWindow, { bounds, darkTheme: nativeTheme.shouldUseDarkColors, preloadPath, isPackaged });

  window.once('ready-to-show', () => {
    if (bounds.maximized) window.maximize();
    window.show();
  });
  window.on('close', () => {
    void stateFile.save({ ...window.getNormalBounds(), maximized: window.isMaximized() });
  });
  window.loadURL(entryUrl).catch((error: unknown) => {
    // Only the app's own URL is named here; it carries nothing secret.
    console.error(`Paneldeck could not load ${entryUrl}: ${error instanceof Error ? error.message : String(error)}`);
    if (!window.isDestroyed()) window.show();
  });
  return window;
}

/** `restoreBounds` takes the primary display first, for a window that lost its own. */
function displaysPrimaryFirst(): DisplayLike[] {
  const primary = screen.getPrimaryDisplay();
  return [primary, ...screen.getAllDisplays().filter((display) => display.id !== primary.id)];
}
