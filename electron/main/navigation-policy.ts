import { isAppMainFrame } from './ipc-registrar.ts';

const MAX_EXTERNAL_URL_LENGTH = 2048;

/**
 * Whether a URL may be handed to the OS browser: http(s) with a host, no user name or password
 * (a classic way to disguise where a link goes), no whitespace or control characters (which the
 * URL parser would silently drop), and not absurdly long.
 */
export function isSafeExternalUrl(url: string): boolean {
  if (url.length > MAX_EXTERNAL_URL_LENGTH || /[\p{Cc} ]/u.test(url)) return false;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  return (
    (parsed.protocol === 'http:' || parsed.protocol === 'https:') &&
    parsed.hostname !== '' &&
    parsed.username === '' &&
    parsed.password === ''
  );
}

/** What to do with `window.open` or a target=_blank link: never a new Electron window; maybe the OS browser. */
export interface WindowOpenDecision {
  action: 'deny';
  /** The normalised URL to open in the OS browser, or null to drop it. */
  openExternally: string | null;
}

export function decideWindowOpen(url: string): WindowOpenDecision {
  return { action: 'deny', openExternally: isSafeExternalUrl(url) ? new URL(url).href : null };
}

/** A URL on one of the app's own origins; the same rule the IPC registrar applies to senders. */
export function isAppUrl(url: string, appOrigins: readonly string[]): boolean {
  return isAppMainFrame({ url, parent: null }, appOrigins);
}

/** The event of Electron's navigation events (`Event<WebContentsWillNavigateEventParams>` and kin). */
export interface NavigationEvent {
  readonly url: string;
  preventDefault(): void;
}

/** The part of Electron's `WebContents` that `hardenContents` wires. */
export interface ContentsLike {
  on(event: 'will-navigate', listener: (details: NavigationEvent) => void): unknown;
  on(event: 'will-frame-navigate', listener: (details: NavigationEvent) => void): unknown;
  on(event: 'will-redirect', listener: (details: NavigationEvent) => void): unknown;
  on(event: 'will-attach-webview', listener: (event: { preventDefault(): void }) => void): unknown;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void;
}

export interface HardeningDeps {
  /** `shell.openExternal`; only ever given URLs that passed `isSafeExternalUrl`. */
  openExternal(url: string): unknown;
  appOrigins: readonly string[];
}

/**
 * Keeps a WebContents on the app's own pages: no navigation or redirect elsewhere, no new
 * windows (a safe http(s) link opens in the OS browser instead), no webviews.
 */
export function hardenContents(contents: ContentsLike, deps: HardeningDeps): void {
  const stayInApp = (details: NavigationEvent) => {
    if (!isAppUrl(details.url, deps.appOrigins)) details.preventDefault();
  };
  contents.on('will-navigate', stayInApp);
  contents.on('will-frame-navigate', stayInApp);
  contents.on('will-redirect', stayInApp);
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    const decision = decideWindowOpen(url);
    if (decision.openExternally !== null) openQuietly(deps, decision.openExternally);
    return { action: decision.action };
  });
}

/** The OS may have no browser, or refuse: that must not throw out of an Electron event. */
function openQuietly(deps: HardeningDeps, url: string): void {
  try {
    const result = deps.openExternal(url); // eng-disable OPEN_EXTERNAL_JS_CHECK: url passed isSafeExternalUrl (http/https, no credentials) in decideWindowOpen
    if (result instanceof Promise) result.catch(() => undefined);
  } catch {
    // Nothing to do: the link simply does not open.
  }
}

/** Which frame asks, as Electron's permission handlers describe it. */
export interface PermissionAsker {
  /** The last URL the requesting frame loaded (a request), or its origin (a check). */
  readonly url: string | undefined;
  readonly isMainFrame: boolean;
}

/** The permission API of Electron's `Session` that `restrictPermissions` sets. */
export interface SessionLike {
  setPermissionRequestHandler(
    handler:
      | ((
          webContents: unknown,
          permission: string,
          callback: (granted: boolean) => void,
          details: { requestingUrl: string; isMainFrame: boolean },
        ) => void)
      | null,
  ): void;
  setPermissionCheckHandler(
    handler: ((webContents: unknown, permission: string, requestingOrigin: string, details: { isMainFrame: boolean }) => boolean) | null,
  ): void;
  setDevicePermissionHandler?(handler: ((details: unknown) => boolean) | null): void;
}

/** The one permission the app uses: its Copy buttons write text through the Clipboard API. */
export const APP_PAGE_PERMISSION = 'clipboard-sanitized-write';

/** Granted only to the top frame of the app's own page, and only APP_PAGE_PERMISSION. */
export function isPermissionGranted(permission: string, asker: PermissionAsker, appOrigins: readonly string[]): boolean {
  return permission === APP_PAGE_PERMISSION && asker.isMainFrame && asker.url !== undefined && isAppUrl(asker.url, appOrigins);
}

/**
 * Every permission request and check is refused (camera, notifications, HID, clipboard reads...)
 * but the clipboard write of the app's own page. With no app origins, nothing at all is granted.
 */
export function restrictPermissions(session: SessionLike, appOrigins: readonly string[]): void {
  session.setPermissionRequestHandler((_webContents, permission, callback, details) =>
    callback(isPermissionGranted(permission, { url: details.requestingUrl, isMainFrame: details.isMainFrame }, appOrigins)),
  );
  session.setPermissionCheckHandler((_webContents, permission, requestingOrigin, details) =>
    isPermissionGranted(permission, { url: requestingOrigin, isMainFrame: details.isMainFrame }, appOrigins),
  );
  session.setDevicePermissionHandler?.(() => false);
}
