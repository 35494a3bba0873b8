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

/**
 * The main window's options. The page gets no Node, an isolated and sandboxed preload, no
 * webviews and full web security; developer tools only in an unpackaged build.
 */
export function mainWindowOptions({ bounds, darkTheme, preloadPath, isPackaged }: MainWindowSettings): BrowserWindowConstructorOptions {
  const { maximized: _maximized, ...placement } = bounds;
  return {
    show: false,
    ...placement,
    minWidth: MIN_SIZE.width,
    minHeight: MIN_SIZE.height,
    backgroundColor: darkTheme ? WINDOW_BACKGROUND.dark : WINDOW_BACKGROUND.light,
    title: 'Paneldeck',
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false,
      devTools: !isPackaged,
    },
  };
}
