import { createServer, type Server } from 'node:http';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Frame, Page } from '@playwright/test';
import { createPanelService, type PanelService, type PanelServiceOptions } from '../../electron/core/index.ts';
import { registerPanelApi, type IpcCallEvent, type SenderFrame } from '../../electron/main/ipc-registrar.ts';
import { serveRendererFile } from '../../electron/main/renderer-files.ts';
import { testEncryption, type TestEncryption } from '../helpers.ts';

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
  service: PanelService;
  encryption: TestEncryption;
  /** Every answer main sent to the renderer, as sent. */
  answers: unknown[];
  /** Console errors and uncaught exceptions of the page, CSP violations included. */
  pageErrors: string[];
}

/**
 * Loads the built renderer the way the app does: the real preload bundle runs first (given a
 * stand-in for `electron` whose `invoke` is a Playwright binding), and the binding hands each
 * call to the real IPC registrar in front of a real panel service.
 */
export interface OpenAppOptions {
  dataDir: string;
  rendererUrl: string;
  rendererOrigin: string;
  encryption?: TestEncryption;
  /** Overrides for the service (a shorter timeout for fault tests, for example). */
  service?: Partial<Omit<PanelServiceOptions, 'dataDir' | 'encryption'>>;
}

export async function openApp(page: Page, options: OpenAppOptions): Promise<AppUnderTest> {
  const encryption = options.encryption ?? testEncryption();
  const service = createPanelService({ dataDir: options.dataDir, encryption, timeoutMs: 4000, ...options.service });
  const handlers = new Map<string, (event: IpcCallEvent, ...args: unknown[]) => Promise<unknown>>();
  registerPanelApi({ ipc: { handle: (channel, listener) => handlers.set(channel, listener), removeHandler: (channel) => handlers.delete(channel) }, service, appOrigins: [options.rendererOrigin] });
  const answers: unknown[] = [];
  await page.exposeBinding('__paneldeckIpc', async ({ frame }, channel: string, args: unknown[]) => {
    const handler = handlers.get(channel);
    const answer = handler ? await handler({ senderFrame: senderFrameOf(frame) }, ...args) : { ok: false, error: { code: 'FORBIDDEN', message: 'No such channel.' } };
    answers.push(answer);
    return answer;
  });
  const pageErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') pageErrors.push(message.text());
  });
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.addInitScript({ content: await preloadInPage() });
  await page.goto(options.rendererUrl);
  return { service, encryption, answers, pageErrors };
}

function senderFrameOf(frame: Frame): SenderFrame {
  const parent = frame.parentFrame();
  return { url: frame.url(), parent: parent ? senderFrameOf(parent) : null };
}

/** dist/preload/preload.cjs wrapped so it runs in the page with `require('electron')` answered. */
async function preloadInPage(): Promise<string> {
  const bundle = await readFile(join(distDir, 'preload', 'preload.cjs'), 'utf8');
  return `(() => {
  const electron = {
    contextBridge: {
      exposeInMainWorld(key, api) {
        Object.defineProperty(window, key, { value: api, writable: false, configurable: false });
      },
    },
    ipcRenderer: { invoke: (channel, ...args) => window.__paneldeckIpc(channel, args) },
  };
  const require = (name) => {
    if (name === 'electron') return electron;
    throw new Error('the preload may require only electron, not ' + name);
  };
  const module = { exports: {} };
  (function (module, exports, require) {
${bundle}
  })(module, module.exports, require);
})();`;
}
