import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { BrowserWindowConstructorOptions } from 'electron';
import { newMainWindow, WINDOW_BACKGROUND, type MainWindowSettings } from '../../../electron/main/main-window-options.ts';

/** Stands in for Electron's BrowserWindow: keeps what it was constructed with. */
class RecordingWindow {
  readonly options: BrowserWindowConstructorOptions;
  constructor(options: BrowserWindowConstructorOptions) {
    this.options = options;
  }
}

const mainWindowOptions = (settings: MainWindowSettings) => newMainWindow(RecordingWindow, settings).options;

const settings = {
  bounds: { x: 10, y: 20, width: 1300, height: 900, maximized: true },
  darkTheme: false,
  preloadPath: '/app/dist/preload/preload.cjs',
  isPackaged: true,
};

test('the page runs isolated, sandboxed, without Node, webviews or middle-click, with web security on', () => {
  for (const isPackaged of [true, false]) {
    const prefs = mainWindowOptions({ ...settings, isPackaged }).webPreferences;
    assert.ok(prefs);
    assert.equal(prefs.preload, '/app/dist/preload/preload.cjs');
    assert.equal(prefs.contextIsolation, true);
    assert.equal(prefs.sandbox, true);
    assert.equal(prefs.nodeIntegration, false);
    assert.equal(prefs.nodeIntegrationInWorker, false);
    assert.equal(prefs.nodeIntegrationInSubFrames, false);
    assert.equal(prefs.webSecurity, true);
    assert.equal(prefs.allowRunningInsecureContent, false);
    assert.equal(prefs.webviewTag, false);
    assert.equal(prefs.disableBlinkFeatures, 'Auxclick');
    assert.equal(prefs.devTools, !isPackaged);
  }
});

test('the window opens hidden at the restored bounds, never below the minimum size', () => {
  const options = mainWindowOptions(settings);
  assert.equal(options.show, false, 'shown on ready-to-show, not before');
  assert.deepEqual([options.x, options.y, options.width, options.height], [10, 20, 1300, 900]);
  assert.equal('maximized' in options, false, 'maximizing is done after showing');
  assert.deepEqual([options.minWidth, options.minHeight], [900, 600]);
  assert.equal(options.title, 'Paneldeck');

  const centred = mainWindowOptions({ ...settings, bounds: { width: 1200, height: 800, maximized: false } });
  assert.equal('x' in centred || 'y' in centred, false, 'no position: the OS centres it');
});

test('the background matches the theme, so the window does not flash', () => {
  assert.equal(mainWindowOptions({ ...settings, darkTheme: true }).backgroundColor, WINDOW_BACKGROUND.dark);
  assert.equal(mainWindowOptions(settings).backgroundColor, WINDOW_BACKGROUND.light);
  assert.deepEqual(WINDOW_BACKGROUND, { dark: '#1b1d22', light: '#f6f7f9' });
});
