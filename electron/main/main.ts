import { join } from 'node:path';
import {
  app,
  BrowserWindow,
  dialog,
  ipcMain,
  Menu,
  nativeTheme,
  net,
  Notification,
  powerMonitor,
  protocol,
  safeStorage,
  session,
  shell,
} from 'electron';
import { createCore, type Core, createFileLog, describeError, silentLog, type FetchLike, type FileLog, type Log } from '../core/index.ts';
import { appMenuTemplate } from './app-menu.ts';
import { followTheme } from './native-theme.ts';
import { BackgroundWork, realClock } from './background-work.ts';
import { loadAppUpdater } from './app-updater.ts';
import { createMainWindow } from './create-main-window.ts';
import { fileDialogs, showStartFailure } from './dialogs.ts';
import { registerPanelApi } from './ipc-registrar.ts';
import { hardenContents, restrictPermissions } from './navigation-policy.ts';
import { netRequestFetch } from './net-request-fetch.ts';
import { closeConnectionsOnTrustChange, PanelCertificates, panelPartition } from './panel-certificates.ts';
import { holdQuitFor } from './quit-hold.ts';
import { systemNotifier } from './notifier.ts';
import { rendererEntry, serveAppRequest } from './renderer-entry.ts';
import { APP_SCHEME } from './renderer-files.ts';
import { safeStorageEncryption } from './safe-storage-encryption.ts';
import { electronSystemState } from './system-state.ts';
import { UpdateChecks } from './update-checks.ts';
import { WindowEvents } from './window-events.ts';
import { windowStateFile } from './window-state.ts';

// The bundles sit side by side: dist/main/main.js, dist/preload/preload.cjs, dist/renderer/.
const rendererDir = join(import.meta.dirname, '../renderer');
const preloadPath = join(import.meta.dirname, '../preload/preload.cjs');

// Before ready: app:// must be standard and secure for the page to have an origin, 'self' in its CSP, and fetch.
protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }]);
// Every renderer sandboxed, whatever a window's options say.
app.enableSandbox();

// Tests run an unpackaged build on a throwaway profile; a packaged app always uses its own.
if (!app.isPackaged && process.env.PANELDECK_USER_DATA_DIR) app.setPath('userData', process.env.PANELDECK_USER_DATA_DIR);

const entry = rendererEntry({ isPackaged: app.isPackaged, devServerUrl: process.env.PANELDECK_DEV_SERVER_URL });
if (entry.warning) console.warn(entry.warning);

let mainWindow: BrowserWindow | null = null;
/** The file log once the app is ready (its folder is known only then); nothing before. */
let log: Log = silentLog;
let fileLog: FileLog | null = null;

// The monitor, not an 'uncaughtException' listener: one of those would suppress Electron's own
// error dialog. Electron only warns on unhandled rejections, so listening to them changes nothing.
process.on('uncaughtExceptionMonitor', (error, origin) => log.error('main.uncaught', { origin, error: describeError(error) }));
process.on('unhandledRejection', (reason) => log.error('main.unhandled-rejection', { error: describeError(reason) }));

/** Set once the app is ready. */
let openMainWindow: (() => void) | null = null;

if (!app.requestSingleInstanceLock()) {
  // Another Paneldeck is running: it gets focused (see 'second-instance') and this one leaves.
  app.quit();
} else {
  app.on('second-instance', showMainWindow);

  // The backstop: every WebContents, the main window's and any other, stays on the app's pages.
  app.on('web-contents-created', (_event, contents) => {
    hardenContents(contents, { appOrigins: entry.appOrigins, openExternal: (url) => shell.openExternal(url) }); // eng-disable OPEN_EXTERNAL_JS_CHECK: hardenContents passes only URLs that passed isSafeExternalUrl
  });

  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });

  app.whenReady().then(start).catch(fail);
}

function start(): void {
  log = fileLog = createFileLog({ dir: app.getPath('logs') });
  app.on('render-process-gone', (_event, _contents, details) =>
    log.error('app.render-process-gone', { reason: details.reason, exitCode: details.exitCode }),
  );
  app.on('child-process-gone', (_event, details) =>
    log.error('app.child-process-gone', { type: details.type, reason: details.reason, exitCode: details.exitCode }),
  );
  // The window's page may write to the clipboard (its Copy buttons), and nothing else.
  restrictPermissions(session.defaultSession, entry.appOrigins);
  protocol.handle(APP_SCHEME, (request) => serveAppRequest(rendererDir, request));

  const encryption = safeStorageEncryption(safeStorage, process.platform);
  const windowEvents = new WindowEvents({
    appOrigins: entry.appOrigins,
    onError: (error) => log.error('window.event-failed', { error: describeError(error) }),
  });
  const background = new BackgroundWork({
    toWindow: (event) => windowEvents.send(event),
    showWindow: showMainWindow,
    system: electronSystemState(powerMonitor, net),
    notifier: systemNotifier(Notification),
    onError: (error) => log.error('background.failed', { error: describeError(error) }),
  });
  // Packaged builds only: electron-updater is not even loaded in development or tests.
  const updates = new UpdateChecks({
    packaged: app.isPackaged,
    createUpdater: () => loadAppUpdater(log),
    clock: realClock,
    log,
    toWindow: (event) => windowEvents.send(event),
  });
  // Panel requests have sessions of their own (in memory: no cache or cookies on disk), one per
  // pinned certificate and one for panels that pin none, each judging certificates with exactly
  // its pin (panel-certificates.ts says why). Made as requests need them.
  const certificates = new PanelCertificates();
  const panelSessions = new Map<string, Electron.Session>();
  const panelFetches = new Map<string, FetchLike>();
  const fetchFor = (pin: string | null): FetchLike => {
    const partition = panelPartition(pin);
    let fetch = panelFetches.get(partition);
    if (!fetch) {
      const panelSession = session.fromPartition(partition);
      // No page ever runs in it: nothing is granted.
      restrictPermissions(panelSession, []);
      const verify = certificates.verifierFor(pin);
      panelSession.setCertificateVerifyProc((request, callback) => callback(verify(request))); // eng-disable CERTIFICATE_VERIFY_PROC_JS_CHECK: only the panels' own sessions, each judging with exactly one pinned SHA-256 (or none) beyond Chromium's verdict (PanelCertificates.verifierFor, tested)
      fetch = netRequestFetch((options) => net.request({ ...options, session: panelSession }));
      panelSessions.set(partition, panelSession);
      panelFetches.set(partition, fetch);
    }
    return fetch;
  };
  const core = createCore({
    // The core writes its own JSON files there (document-store.ts). Not electron-store: its constructor
    // adds an IPC listener ('electron-store-get-data') that checks no sender, and the registrar's channels must be all.
    dataDir: app.getPath('userData'),
    encryption,
    fetch: certificates.wrap(fetchFor),
    // The log socket is the core's own (Node's net and tls): it asks Chromium for the system proxy, as net.request finds it.
    resolveProxy: (url) => session.defaultSession.resolveProxy(url),
    emit: background.emit,
    // The system's save and open dialogs, over the window: the renderer never touches the file system.
    ...fileDialogs(dialog, { documents: () => app.getPath('documents'), window: () => mainWindow }),
    // Only from the window's "Restart now": Paneldeck never restarts by itself.
    installUpdate: () => updates.install(),
  });
  // What main does after a change, it learns from the core's notifications: a changed trust closes
  // the connections made under the old one, the theme setting moves nativeTheme, and the background
  // (from its start) re-plans the checks and warnings after a settings change.
  closeConnectionsOnTrustChange(core, () => panelSessions.values());
  followTheme(core, (theme) => (nativeTheme.themeSource = theme));
  registerPanelApi({ ipc: ipcMain, core, appOrigins: entry.appOrigins, log });
  void background.start(core);
  app.on(
    'before-quit',
    background.beforeQuit(() => app.quit()),
  );
  app.on('before-quit', () => updates.stop());
  void logStart(encryption, core);

  // A menu command (or its shortcut) is run by the window, which knows the selected panel.
  Menu.setApplicationMenu(
    Menu.buildFromTemplate(
      appMenuTemplate(process.platform, app.getName(), app.isPackaged, (command) => windowEvents.send({ type: 'runCommand', command })),
    ),
  );

  const stateFile = windowStateFile(join(app.getPath('userData'), 'window-state.json'));
  // Last: the window's bounds are saved as it closes, and log lines come until then.
  app.on(
    'will-quit',
    holdQuitFor(
      async () => {
        await stateFile.flush();
        await fileLog?.flush();
      },
      () => app.quit(),
      3000,
    ),
  );
  openMainWindow = () => {
    const window = createMainWindow({ entryUrl: entry.url, preloadPath, isPackaged: app.isPackaged, stateFile });
    const detach = windowEvents.attach(window);
    // Live log follows end with the page that asked for them: a reload or a closed window no longer listens.
    window.webContents.on('did-start-navigation', (details) => {
      if (details.isMainFrame && !details.isSameDocument) core.stopAllLogFollows();
    });
    window.on('closed', () => {
      core.stopAllLogFollows();
      detach();
      if (mainWindow === window) mainWindow = null;
    });
    mainWindow = window;
  };
  openMainWindow();
  // The first check a little after the window is up, then daily.
  updates.start();

  // macOS: clicking the dock icon with no window open opens one.
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) openMainWindow?.();
  });
}

/** Brings the main window to the front; macOS keeps running with no window, so this may open one. */
function showMainWindow(): void {
  if (!mainWindow || mainWindow.isDestroyed()) {
    openMainWindow?.();
    return;
  }
  if (mainWindow.isMinimized()) mainWindow.restore();
  mainWindow.show();
  mainWindow.focus();
}

/** After the availability check: Linux names its keyring backend only once encryption started. */
async function logStart(encryption: ReturnType<typeof safeStorageEncryption>, core: Core): Promise<void> {
  const encryptionAvailable = await encryption.isAvailable().catch(() => false);
  log.info('app.start', {
    appVersion: app.getVersion(),
    electronVersion: process.versions.electron,
    platform: process.platform,
    storageBackend: encryption.backend(),
    encryptionAvailable,
  });
  const problem = await core
    .loadProblem()
    .catch((error: unknown) => ({ message: 'The panel list could not be read.', movedTo: null, error: describeError(error) }));
  if (problem) log.warn('panels.load-problem', { ...problem });
}

function fail(error: unknown): void {
  log.error('app.start-failed', { error: describeError(error) });
  const message = error instanceof Error ? error.message : String(error);
  console.error(`Paneldeck could not start: ${message}`);
  showStartFailure(dialog, message);
  void (fileLog?.flush() ?? Promise.resolve()).finally(() => app.exit(1));
}
