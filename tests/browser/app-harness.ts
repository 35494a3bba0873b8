import { createServer, type Server } from 'node:http';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Frame, Page } from '@playwright/test';
import type { PanelEvent } from '../../shared/contract/events.ts';
import { createCore, type Core, type CoreOptions } from '../../electron/core/index.ts';
import type { SenderFrame } from '../../electron/main/ipc-registrar.ts';
import { WindowEvents, type EventWindow } from '../../electron/main/window-events.ts';
import { createFileLog } from '../../electron/core/log/file-log.ts';
import { serveRendererFile } from '../../electron/main/renderer-files.ts';
import { registeredIpc } from '../support/fake-ipc.ts';
import { testEncryption, type TestEncryption } from '../support/helpers.ts';

const distDir = join(import.meta.dirname, '..', '..', 'dist');

/** The built renderer over loopback HTTP, answered by the same code as the app's protocol. */
export async function startRendererServer(): Promise<{ url: string; origin: string; close(): Promise<void> }> {
  const rendererDir = join(distDir, 'renderer');
  const server: Server = createServer((request, response) => {
    const url = `http://${request.headers.host ?? '127.0.0.1'}${request.url ?? '/'}`;
    serveRendererFile(rendererDir, new Request(url, { method: request.method }))
      .then(async (answer) => {
        response.writeHead(answer.status, Object.fromEntries(answer.headers));
        response.end(Buffer.from(await answer.arrayBuffer()));
      })
      .catch(() => response.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (typeof address !== 'object' || address === null) throw new Error('renderer server has no port');
  const origin = `http://127.0.0.1:${address.port}`;
  return { url: `${origin}/index.html`, origin, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

export interface AppUnderTest {
  core: Core;
  encryption: TestEncryption;
  /** Every answer main sent to the renderer, as sent. */
  answers: unknown[];
  /** The channel of each call the page made, in order (beside `answers`). */
  calls: string[];
  /** Console errors and uncaught exceptions of the page, CSP violations included. */
  pageErrors: string[];
  /** Every event main sent to the page, as sent. */
  events: PanelEvent[];
  /** Sends an event to the page the way main does (the core's own events go there already). */
  sendEvent(event: PanelEvent): Promise<void>;
}

/**
 * Loads the built renderer the way the app does: the real preload bundle runs first (given a
 * stand-in for `electron` whose `invoke` is a Playwright binding), and the binding hands each
 * call to the real IPC registrar in front of a real core. The core's events go
 * through the app's own WindowEvents to the listeners the preload set with `ipcRenderer.on`.
 */
export interface OpenAppOptions {
  dataDir: string;
  rendererUrl: string;
  rendererOrigin: string;
  encryption?: TestEncryption;
  /** Where main's file log goes, as the app's logs folder would; no log without it. */
  logDir?: string;
  /** Overrides for the core (a shorter timeout for fault tests, for example). */
  core?: Partial<Omit<CoreOptions, 'dataDir' | 'encryption'>>;
  /** Changes what main answers on `channel` before the renderer sees it: answers main would never send. */
  tamperAnswer?: (channel: string, answer: unknown) => unknown;
}

export async function openApp(page: Page, options: OpenAppOptions): Promise<AppUnderTest> {
  const encryption = options.encryption ?? testEncryption();
  const { events, send, delivered } = pageEvents(page, options.rendererOrigin);
  const emit = (event: PanelEvent) => {
    send(event);
    options.core?.emit?.(event);
  };
  const core = createCore({ dataDir: options.dataDir, encryption, timeoutMs: 4000, ...options.core, emit });
  const log = options.logDir ? createFileLog({ dir: options.logDir }) : undefined;
  const ipc = registeredIpc({ core, appOrigins: [options.rendererOrigin], log });
  const answers: unknown[] = [];
  const calls: string[] = [];
  await page.exposeBinding('__paneldeckIpc', async ({ frame }, channel: string, args: unknown[]) => {
    calls.push(channel);
    const answer = ipc.handlers.has(channel)
      ? await ipc.callFrom({ senderFrame: senderFrameOf(frame) }, channel, ...args)
      : { ok: false, error: { code: 'FORBIDDEN', message: 'No such channel.' } };
    const sent = options.tamperAnswer ? options.tamperAnswer(channel, answer) : answer;
    answers.push(sent);
    return toWire(sent);
  });
  const pageErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') pageErrors.push(message.text());
  });
  page.on('pageerror', (error) => pageErrors.push(error.message));
  // What main grants the app's page (restrictPermissions): the clipboard write of its Copy buttons.
  await page.context().grantPermissions(['clipboard-write'], { origin: options.rendererOrigin });
  await page.addInitScript({ content: await preloadInPage() });
  await page.goto(options.rendererUrl);
  return {
    core,
    encryption,
    answers,
    calls,
    pageErrors,
    events,
    sendEvent: (event) => {
      send(event);
      return delivered();
    },
  };
}

/** What the init script below installs in the page for main's events to arrive by. */
interface PageHooks {
  __paneldeckEvent?: (channel: string, text: string) => void;
}

/**
 * Main's `webContents.send` for the page: the app's own WindowEvents (the same origin check, the
 * same plain payload) in front of a window whose `send` dispatches, in order, to the listeners the
 * preload registered with `ipcRenderer.on`. Like Electron, a page that is closed or elsewhere gets nothing.
 */
function pageEvents(
  page: Page,
  rendererOrigin: string,
): { events: PanelEvent[]; send(event: PanelEvent): void; delivered(): Promise<void> } {
  const events: PanelEvent[] = [];
  let delivery: Promise<void> = Promise.resolve();
  const window: EventWindow = {
    isDestroyed: () => page.isClosed(),
    webContents: {
      isDestroyed: () => page.isClosed(),
      getURL: () => page.url(),
      send: (channel, payload) => {
        events.push(payload as PanelEvent);
        const text = toWire(payload);
        // One after another: Electron delivers a window's messages in the order they were sent.
        delivery = delivery
          .then(() => page.evaluate(([name, wire]) => (globalThis as PageHooks).__paneldeckEvent?.(name, wire), [channel, text] as const))
          .catch(() => undefined); // the page closed or navigated meanwhile: the event is lost, as in the app
      },
    },
  };
  const sender = new WindowEvents({ appOrigins: [rendererOrigin] });
  sender.attach(window);
  return { events, send: (event) => void sender.send(event), delivered: () => delivery };
}

function senderFrameOf(frame: Frame): SenderFrame {
  const parent = frame.parentFrame();
  return { url: frame.url(), parent: parent ? senderFrameOf(parent) : null };
}

/**
 * Answers cross to the page as JSON text: Playwright's protocol to Chromium refuses values nested
 * a few hundred levels deep, which a session answer may be, while Electron's IPC (structured
 * clone) has no such limit. What structured clone keeps and JSON drops travels as marked strings.
 */
const WIRE_MARK = '\u0000paneldeck-wire:';

function toWire(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => {
    if (item === undefined) return `${WIRE_MARK}undefined`;
    if (typeof item === 'number' && (Object.is(item, -0) || !Number.isFinite(item)))
      return `${WIRE_MARK}${Object.is(item, -0) ? '-0' : String(item)}`;
    return item;
  });
}

/** Runs in the page (its source is inlined there): JSON.parse, then the marks back to values. */
function fromWire(text: string): unknown {
  const mark = '\u0000paneldeck-wire:';
  const marked: Record<string, unknown> = { undefined: undefined, '-0': -0, NaN: NaN, Infinity: Infinity, '-Infinity': -Infinity };
  const holder: Record<string, unknown> = { value: JSON.parse(text) };
  // With a stack, not recursion, for the same deep answers.
  const pending: Record<string, unknown>[] = [holder];
  for (let node = pending.pop(); node; node = pending.pop()) {
    for (const key of Object.keys(node)) {
      const item = node[key];
      if (typeof item === 'object' && item !== null) pending.push(item as Record<string, unknown>);
      else if (typeof item === 'string' && item.startsWith(mark))
        Object.defineProperty(node, key, { value: marked[item.slice(mark.length)], enumerable: true, writable: true, configurable: true });
    }
  }
  return holder.value;
}

/** dist/preload/preload.cjs wrapped so it runs in the page with `require('electron')` answered. */
async function preloadInPage(): Promise<string> {
  const bundle = await readFile(join(distDir, 'preload', 'preload.cjs'), 'utf8');
  return `(() => {
  const fromWire = ${fromWire.toString()};
  const listeners = new Map();
  // Main's send: each listener gets an event object (which the preload must drop) and the payload.
  Object.defineProperty(window, '__paneldeckEvent', {
    value: (channel, text) => {
      for (const listener of [...(listeners.get(channel) ?? [])]) listener({ sender: 'ipc-renderer-event' }, fromWire(text));
    },
  });
  const electron = {
    contextBridge: {
      exposeInMainWorld(key, api) {
        Object.defineProperty(window, key, { value: api, writable: false, configurable: false });
      },
    },
    ipcRenderer: {
      invoke: (channel, ...args) => window.__paneldeckIpc(channel, args).then(fromWire),
      on(channel, listener) {
        if (!listeners.has(channel)) listeners.set(channel, new Set());
        listeners.get(channel).add(listener);
        return this;
      },
      removeListener(channel, listener) {
        listeners.get(channel)?.delete(listener);
        return this;
      },
    },
  };
${wrapPreload(bundle, 'electron')}
})();`;
}

/**
 * The built preload's text, run as CommonJS with `require('electron')` answered by the page's
 * expression `electron` (a fake of main), for the browser tests and the panel list benchmark alike.
 */
export function wrapPreload(bundle: string, electron: string): string {
  return `  const require = (name) => {
    if (name === 'electron') return ${electron};
    throw new Error('the preload may require only electron, not ' + name);
  };
  const module = { exports: {} };
  (function (module, exports, require) {
${bundle}
  })(module, module.exports, require);`;
}
