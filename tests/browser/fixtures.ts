import { test as base, expect, type Page } from '@playwright/test';
import { startReferencePanel, type ReferencePanel } from '../support/reference-panel/server.ts';
import { tempDir } from '../support/helpers.ts';
import { openApp, startRendererServer, type AppUnderTest } from './app-harness.ts';
import { type ConfirmationPages, confirmationPages } from './confirmation-page.ts';
import { addPanel, answerInMain, demo, logIn } from './ui-steps.ts';

interface Fixtures {
  /** A fresh data directory for this test. */
  dataDir: string;
  /** A fresh folder for main's file log, kept apart from the data so each can be searched. */
  logDir: string;
  /** A reference panel that puts the token back into its session answers, the worst case for leaks. */
  panelServer: ReferencePanel;
  /**
   * Main's own confirmation of writes, as the app opens it (its real page, in a browser context of
   * its own): every app `launch` opens asks here unless its options give the core a `confirmWrite`.
   * A test answers each with `confirmInMain` (ui-steps.ts).
   */
  confirmations: ConfirmationPages;
  /** Opens the app in `page` on `dataDir`: call again on a new page to "restart". */
  launch(page: Page, options?: Partial<Parameters<typeof openApp>[1]>): Promise<AppUnderTest>;
}

export const test = base.extend<Fixtures, { renderer: Awaited<ReturnType<typeof startRendererServer>> }>({
  renderer: [
    async ({}, use) => {
      const server = await startRendererServer();
      await use(server);
      await server.close();
    },
    { scope: 'worker' },
  ],
  dataDir: async ({}, use) => {
    const dir = await tempDir('paneldeck-browser-');
    await use(dir.path);
    await dir.cleanup();
  },
  logDir: async ({}, use) => {
    const dir = await tempDir('paneldeck-logs-');
    await use(dir.path);
    await dir.cleanup();
  },
  panelServer: async ({}, use) => {
    const server = await startReferencePanel({ echoTokenInSession: true });
    await use(server);
    await server.close();
  },
  confirmations: async ({ browser, renderer }, use) => {
    const pages = await confirmationPages(browser, renderer.origin);
    await use(pages);
    await pages.close();
  },
  launch: async ({ renderer, dataDir, confirmations }, use) => {
    const opened: AppUnderTest[] = [];
    await use(async (page, options) => {
      const core = { confirmWrite: confirmations.confirmWrite, ...options?.core };
      const app = await openApp(page, { dataDir, rendererUrl: renderer.url, rendererOrigin: renderer.origin, ...options, core });
      opened.push(app);
      return app;
    });
    // Each service writes its coalesced check history now, while its data directory still
    // exists: a write due later raced the directory's removal (ENOTEMPTY in CI).
    await Promise.all(opened.map((app) => app.core.flush()));
    // Under the app's CSP, nothing the page did may have been blocked or have thrown.
    expect(opened.flatMap((app) => app.pageErrors)).toEqual([]);
  },
});

export { expect };

export { addPanel, answerInMain, demo, logIn };

/** Two panels, "Production" (the reference panel, logged in, its session shown) and "Staging". */
export async function addProductionSignedInAndStaging(page: Page, productionUrl: string): Promise<void> {
  await addPanel(page, productionUrl, 'Production');
  await addPanel(page, 'panel.example.com', 'Staging');
  await page
    .getByRole('navigation', { name: 'Panels' })
    .getByRole('treeitem', { name: /Production/ })
    .click();
  await logIn(page);
  await expect(page.locator('dl.summary')).toContainText(demo.email);
}
