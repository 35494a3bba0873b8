import { BrowserWindow, nativeTheme } from 'electron';
import { WINDOW_BACKGROUND } from './main-window-options.ts';
import type { ConfirmationWindow } from './write-confirmation.ts';

/**
 * The session of the confirmation page: in memory, apart from the panel window's, so that page
 * shares no storage, cache or channel (localStorage, BroadcastChannel) with what the panel window
 * runs. main.ts serves app:// on it and grants it nothing.
 */
export const CONFIRMATION_PARTITION = 'paneldeck-confirmation';

export interface ConfirmationWindowSettings {
  /** The panel window, which the confirmation is modal over; null when it is gone. */
  parent: BrowserWindow | null;
  preloadPath: string;
  /** The confirmation page (renderer/confirm/confirm.html) on the app's origin. */
  url: string;
  isPackaged: boolean;
}

/** Opens main's confirmation window; the options are written inline for Electronegativity to check. */
export function openConfirmationWindow({ parent, preloadPath, url, isPackaged }: ConfirmationWindowSettings): ConfirmationWindow {
  const window = new BrowserWindow({
    ...(parent && !parent.isDestroyed() ? { parent, modal: true } : {}),
    show: false,
    width: 640,
    height: 560,
    minWidth: 420,
    minHeight: 320,
    minimizable: false,
    fullscreenable: false,
    title: 'Confirm – Paneldeck',
    backgroundColor: nativeTheme.shouldUseDarkColors ? WINDOW_BACKGROUND.dark : WINDOW_BACKGROUND.light,
    webPreferences: {
      preload: preloadPath, // eng-disable PRELOAD_JS_CHECK: reviewed: it exposes only the plan shown and one answer (electron/preload/confirm-preload.ts), isolated and sandboxed
      partition: CONFIRMATION_PARTITION,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      disableBlinkFeatures: 'Auxclick',
      spellcheck: false,
      devTools: !isPackaged,
    },
  });
  window.setMenuBarVisibility(false);
  window.once('ready-to-show', () => window.show());
  window.loadURL(url).catch(() => {
    // A page that does not load answers nothing: closing it answers "not confirmed".
    if (!window.isDestroyed()) window.close();
  });
  return {
    contentsId: window.webContents.id,
    onGone: (listener) => window.once('closed', listener),
    close: () => {
      if (!window.isDestroyed()) window.close();
    },
  };
}
