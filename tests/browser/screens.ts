import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

export const screenshotDir = join(import.meta.dirname, '..', '..', 'test-results', 'screenshots');

/**
 * Saves a screenshot of what the page shows now (test-results/screenshots/<name>.png) and scans
 * it with axe-core: no serious or critical accessibility violation may be on any screen.
 */
export async function checkScreen(page: Page, name: string): Promise<void> {
  await mkdir(screenshotDir, { recursive: true });
  await page.screenshot({ path: join(screenshotDir, `${name}.png`) });
  const results = await new AxeBuilder({ page }).analyze();
  const severe = results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help} at ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
    );
  expect(severe, `accessibility violations on screen "${name}"`).toEqual([]);
}

/** `checkScreen` at the suite's window size (900x600) and at full HD (name-full-hd), then back. */
export async function checkScreenBothSizes(page: Page, name: string): Promise<void> {
  await checkScreen(page, name);
  await page.setViewportSize({ width: 1920, height: 1080 });
  await checkScreen(page, `${name}-full-hd`);
  await page.setViewportSize({ width: 900, height: 600 });
}

/** `checkScreen` at 900x600 (name), 1280x800 (name-1280) and full HD (name-full-hd), then back at the size it was. */
export async function checkScreenThreeSizes(page: Page, name: string): Promise<void> {
  const was = page.viewportSize() ?? { width: 900, height: 600 };
  for (const [width, height, suffix] of [
    [900, 600, ''],
    [1280, 800, '-1280'],
    [1920, 1080, '-full-hd'],
  ] as const) {
    await page.setViewportSize({ width, height });
    await checkScreen(page, `${name}${suffix}`);
  }
  await page.setViewportSize(was);
}

/**
 * Everything the renderer holds that a test can reach: the DOM with input values, every string
 * under `window` (walked, cycles skipped), cookies, both storages and every IndexedDB record.
 */
export async function rendererContents(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const parts: string[] = [document.documentElement.outerHTML, document.cookie];
    for (const input of Array.from(document.querySelectorAll('input, textarea'))) parts.push((input as HTMLInputElement).value);
    for (const storage of [localStorage, sessionStorage]) {
      for (let index = 0; index < storage.length; index++) {
        const key = storage.key(index) ?? '';
        parts.push(key, storage.getItem(key) ?? '');
      }
    }
    for (const info of await indexedDB.databases()) {
      if (!info.name) continue;
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const open = indexedDB.open(info.name as string);
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(open.error);
      });
      for (const store of Array.from(db.objectStoreNames)) {
        const all = await new Promise<unknown[]>((resolve) => {
          const request = db.transaction(store).objectStore(store).getAll();
          request.onsuccess = () => resolve(request.result);
        });
        parts.push(store, JSON.stringify(all));
      }
      db.close();
    }
    const seen = new Set<unknown>();
    const walk = (value: unknown, depth: number) => {
      if (typeof value === 'string') parts.push(value);
      if ((typeof value !== 'object' && typeof value !== 'function') || value === null || seen.has(value) || depth > 6) return;
      if (value instanceof Node) return; // the DOM is covered by outerHTML above
      seen.add(value);
      for (const key of Object.getOwnPropertyNames(value)) {
        let child: unknown;
        try {
          child = (value as Record<string, unknown>)[key];
        } catch {
          continue;
        }
        // A promise getter read off its prototype (WritableStreamDefaultWriter.prototype.closed...)
        // answers a rejected promise: handled here, it is not reported as the page's own error.
        if (child instanceof Promise) child.catch(() => undefined);
        parts.push(key);
        walk(child, depth + 1);
      }
    };
    walk(window, 0);
    return parts.join('\n');
  });
}
