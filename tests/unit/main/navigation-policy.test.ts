import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { test } from 'node:test';
import {
  APP_PAGE_PERMISSION,
  decideWindowOpen,
  hardenContents,
  isAppUrl,
  isPermissionGranted,
  isSafeExternalUrl,
  restrictPermissions,
  type NavigationEvent,
  type SessionLike,
} from '../../../electron/main/navigation-policy.ts';
import { APP_ORIGIN } from '../../../electron/main/renderer-files.ts';

test('only plain http(s) links with a host go to the OS browser', () => {
  for (const url of ['https://example.com/docs?a=1#x', 'http://panel.lan:8080/', 'https://[::1]:8443/', 'https://xn--bcher-kva.example/']) {
    assert.equal(isSafeExternalUrl(url), true, url);
  }
  for (const url of [
    'javascript:alert(1)',
    'file:///etc/passwd',
    'data:text/html,<script>1</script>',
    'app://paneldeck/index.html',
    'mailto:ops@example.com',
    'smb://server/share',
    'ms-settings:',
    'https://user:pass@example.com/',
    'https://user@example.com/',
    'https://example.com/a\nb',
    ' https://example.com/',
    'https://example.com/\u0000',
    'http:',
    'not a url',
    '',
    `https://example.com/${'a'.repeat(2048)}`,
  ]) {
    assert.equal(isSafeExternalUrl(url), false, JSON.stringify(url));
  }
  assert.equal(isSafeExternalUrl(`https://example.com/${'a'.repeat(2028)}`), true, 'just under the cap');
});

test('window.open is always denied; a safe URL is opened in the OS browser, normalised', () => {
  assert.deepEqual(decideWindowOpen('https://Example.com/docs'), { action: 'deny', openExternally: 'https://example.com/docs' });
  assert.deepEqual(decideWindowOpen('javascript:alert(1)'), { action: 'deny', openExternally: null });
  assert.deepEqual(decideWindowOpen('app://paneldeck/index.html'), { action: 'deny', openExternally: null });
});

test('app URLs are those on the app origins, whatever the path, and nothing else', () => {
  assert.equal(isAppUrl('app://paneldeck/index.html', [APP_ORIGIN]), true);
  assert.equal(isAppUrl('app://paneldeck/assets/x.js?v=1', [APP_ORIGIN]), true);
  assert.equal(isAppUrl('app://paneldeck.evil/index.html', [APP_ORIGIN]), false);
  assert.equal(isAppUrl('app://other/index.html', [APP_ORIGIN]), false);
  assert.equal(isAppUrl('https://paneldeck/index.html', [APP_ORIGIN]), false);
  assert.equal(isAppUrl('http://127.0.0.1:5173/', [APP_ORIGIN]), false);
  assert.equal(isAppUrl('http://127.0.0.1:5173/', [APP_ORIGIN, 'http://127.0.0.1:5173']), true);
  assert.equal(isAppUrl('http://127.0.0.1:5174/', [APP_ORIGIN, 'http://127.0.0.1:5173']), false);
  assert.equal(isAppUrl('garbage', [APP_ORIGIN]), false);
});

/** A WebContents stand-in: emits navigation events and keeps the window open handler. */
class FakeContents extends EventEmitter {
  openHandler: ((details: { url: string }) => { action: 'deny' }) | null = null;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }) {
    this.openHandler = handler;
  }
  /** Emits `event` and says whether some listener prevented it. */
  navigate(event: string, url: string): boolean {
    let prevented = false;
    const details: NavigationEvent = { url, preventDefault: () => (prevented = true) };
    this.emit(event, details, url);
    return prevented;
  }
}

function hardened(appOrigins = [APP_ORIGIN]) {
  const contents = new FakeContents();
  const opened: string[] = [];
  hardenContents(contents, { appOrigins, openExternal: (url) => opened.push(url) });
  return { contents, opened };
}

test('navigations and redirects away from the app are prevented, without opening anything', () => {
  const { contents, opened } = hardened();
  for (const event of ['will-navigate', 'will-frame-navigate', 'will-redirect']) {
    assert.equal(contents.navigate(event, 'https://example.com/'), true, event);
    assert.equal(contents.navigate(event, 'file:///etc/passwd'), true, event);
    assert.equal(contents.navigate(event, 'app://elsewhere/index.html'), true, event);
    // A reload, or another page of the app itself, goes ahead.
    assert.equal(contents.navigate(event, 'app://paneldeck/index.html'), false, event);
  }
  assert.deepEqual(opened, []);
});

test('the dev server origin is allowed only when it is one of the app origins', () => {
  assert.equal(hardened().contents.navigate('will-navigate', 'http://127.0.0.1:5173/'), true);
  assert.equal(hardened([APP_ORIGIN, 'http://127.0.0.1:5173']).contents.navigate('will-navigate', 'http://127.0.0.1:5173/'), false);
});

test('new windows are denied; safe links open externally, others not at all', () => {
  const { contents, opened } = hardened();
  assert.ok(contents.openHandler);
  assert.deepEqual(contents.openHandler({ url: 'https://example.com/help' }), { action: 'deny' });
  assert.deepEqual(contents.openHandler({ url: 'javascript:alert(1)' }), { action: 'deny' });
  assert.deepEqual(contents.openHandler({ url: 'file:///etc/passwd' }), { action: 'deny' });
  assert.deepEqual(contents.openHandler({ url: 'app://paneldeck/index.html' }), { action: 'deny' });
  assert.deepEqual(opened, ['https://example.com/help']);
});

test('a failing openExternal, thrown or rejected, does not escape the handler', async () => {
  for (const openExternal of [
    () => Promise.reject(new Error('no browser')),
    () => {
      throw new Error('no browser');
    },
  ]) {
    const contents = new FakeContents();
    hardenContents(contents, { appOrigins: [APP_ORIGIN], openExternal });
    assert.deepEqual(contents.openHandler?.({ url: 'https://example.com/' }), { action: 'deny' });
  }
  // An unhandled rejection would fail this test file; give it a turn to surface.
  await new Promise((resolve) => setImmediate(resolve));
});

test('webviews are never attached', () => {
  const { contents } = hardened();
  let prevented = false;
  contents.emit('will-attach-webview', { preventDefault: () => (prevented = true) }, {}, { src: 'https://example.com/' });
  assert.equal(prevented, true);
});

/** Every permission name Electron 45 passes to the handlers. */
const ELECTRON_PERMISSIONS = [
  'ar',
  'automatic-fullscreen',
  'background-fetch',
  'background-sync',
  'captured-surface-control',
  'clipboard-read',
  'clipboard-sanitized-write',
  'deprecated-sync-clipboard-read',
  'display-capture',
  'fileSystem',
  'fullscreen',
  'geolocation',
  'geolocation-approximate',
  'hand-tracking',
  'hid',
  'idle-detection',
  'keyboardLock',
  'local-fonts',
  'local-network',
  'local-network-access',
  'loopback-network',
  'media',
  'mediaKeySystem',
  'midi',
  'midiSysex',
  'nfc',
  'notifications',
  'openExternal',
  'payment-handler',
  'periodic-background-sync',
  'persistent-storage',
  'pointerLock',
  'screen-wake-lock',
  'sensors',
  'serial',
  'smart-card',
  'speaker-selection',
  'storage-access',
  'system-wake-lock',
  'top-level-storage-access',
  'usb',
  'vr',
  'web-app-installation',
  'web-printing',
  'window-management',
  'unknown',
];

/** A session whose handlers the test can call, answering as Electron would ask: a request, then a check. */
function permissionSession(): SessionLike & {
  asks(permission: string, url: string, isMainFrame?: boolean): { request: boolean[]; check: boolean | undefined };
  device(): boolean | undefined;
} {
  const handlers: {
    request?: Parameters<SessionLike['setPermissionRequestHandler']>[0];
    check?: Parameters<SessionLike['setPermissionCheckHandler']>[0];
    device?: ((details: unknown) => boolean) | null;
  } = {};
  return {
    setPermissionRequestHandler: (handler) => (handlers.request = handler),
    setPermissionCheckHandler: (handler) => (handlers.check = handler),
    setDevicePermissionHandler: (handler) => (handlers.device = handler),
    asks: (permission, url, isMainFrame = true) => {
      const request: boolean[] = [];
      handlers.request?.({}, permission, (granted) => request.push(granted), { requestingUrl: url, isMainFrame });
      // Electron names the origin of a custom standard scheme too (URL.origin says "null" for app://).
      const { protocol, host } = new URL(url);
      return { request, check: handlers.check?.({}, permission, `${protocol}//${host}`, { isMainFrame }) };
    },
    device: () => handlers.device?.({ deviceType: 'usb' }),
  };
}

test('the app\u2019s own page may write to the clipboard, and that is the one permission granted', () => {
  const session = permissionSession();
  restrictPermissions(session, [APP_ORIGIN]);
  const page = `${APP_ORIGIN}/index.html`;
  assert.equal(APP_PAGE_PERMISSION, 'clipboard-sanitized-write');
  assert.deepEqual(session.asks('clipboard-sanitized-write', page), { request: [true], check: true });
  for (const permission of ELECTRON_PERMISSIONS.filter((name) => name !== 'clipboard-sanitized-write')) {
    assert.deepEqual(session.asks(permission, page), { request: [false], check: false }, permission);
  }
  assert.equal(session.device(), false);

  // An unpackaged build on the Vite dev server: that origin is the app's page too.
  const dev = permissionSession();
  restrictPermissions(dev, [APP_ORIGIN, 'http://127.0.0.1:5173']);
  assert.deepEqual(dev.asks('clipboard-sanitized-write', 'http://127.0.0.1:5173/index.html'), { request: [true], check: true });
});

test('no other origin or frame gets the clipboard write, nor a session without app origins', () => {
  const session = permissionSession();
  restrictPermissions(session, [APP_ORIGIN]);
  for (const url of [
    'https://evil.example/',
    'app://paneldeck.evil/index.html',
    'app://other/index.html',
    'file:///tmp/index.html',
    'http://127.0.0.1:5173/',
  ]) {
    assert.deepEqual(session.asks('clipboard-sanitized-write', url), { request: [false], check: false }, url);
  }
  // An iframe inside the app's page; an asker with no URL, or not a URL.
  assert.deepEqual(session.asks('clipboard-sanitized-write', `${APP_ORIGIN}/index.html`, false), { request: [false], check: false });
  for (const url of [undefined, '', 'not a url']) {
    assert.equal(isPermissionGranted('clipboard-sanitized-write', { url, isMainFrame: true }, [APP_ORIGIN]), false, String(url));
  }

  // The panels' session: no page, nothing granted.
  const panels = permissionSession();
  restrictPermissions(panels, []);
  assert.deepEqual(panels.asks('clipboard-sanitized-write', `${APP_ORIGIN}/index.html`), { request: [false], check: false });

  // An older session without device permissions is still locked down.
  const minimal: SessionLike = { setPermissionRequestHandler: () => undefined, setPermissionCheckHandler: () => undefined };
  assert.doesNotThrow(() => restrictPermissions(minimal, [APP_ORIGIN]));
});
