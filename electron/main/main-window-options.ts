import type { BrowserWindowConstructorOptions } from 'electron';
import { MIN_SIZE, type RestoredBounds } from './window-state.ts';

/** The page's own background, so the window does not flash white (or dark) before it paints. */
export const WINDOW_BACKGROUND = { dark: '#1b1d22', light: '#f6f7f9' } as const;

export interface MainWindowSettings {
  bounds: RestoredBounds;
  darkTheme: boolean;
  preloadPath: string;
  isPackaged: boolean;
}

/** Electron's `BrowserWindow`, or a test's stand-in that keeps the options it was given. */
export type WindowConstructor<W> = new (options: BrowserWindowConstructorOptions) => W;

/**
 * Makes the main window. The page gets no Node, an isolated and sandboxed preload, no webviews,
 * no middle-click (auxclick) and full web security; developer tools only in an unpackaged build.
 * The options are written inside `new BrowserWindow(...)` itself: Electronegativity reads them
 * only there, so it checks them rather than being told to skip them.
 */
export function newMainWindow<W>(
  BrowserWindow: WindowConstructor<W>,
  { bounds, darkTheme, preloadPath, isPackaged }: MainWindowSettings,
): W {
  const { maximized: _maximized, ...placement } = bounds;
  return new BrowserWindow({
    show: false,
    ...placement,
    minWidth: MIN_SIZE.width,
    minHeight: MIN_SIZE.height,
    backgroundColor: darkTheme ? WINDOW_BACKGROUND.dark : WINDOW_BACKGROUND.light,
    title: 'Paneldeck',
    webPreferences: {
      preload: preloadPath, // eng-disable PRELOAD_JS_CHECK: reviewed: it exposes only the contract's named methods and an event subscription (electron/preload, shared/contract/bridge.ts), isolated and sandboxed
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
}
