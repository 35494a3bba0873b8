import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { bundleReport, FIRST_BUNDLE_LIMIT_BYTES, firstBundle, gzippedTotal } from '../support/first-bundle.ts';

/**
 * The renderer's first bundle (issue 34): what the window fetches and runs before its first
 * screen, gzipped, stays under 150 KiB, and the views opened later stay out of it. Here and not
 * in the unit tests because the browser tests always run on a fresh build (`npm test` builds
 * before them, `npm run test:browser` too); no page is opened, the built files are read.
 */
const rendererDir = join(import.meta.dirname, '..', '..', 'dist', 'renderer');

/**
 * The files of the views that load when first opened (docs/architecture.md, "What loads at
 * start"), by the name Vite gives each chunk: its module's file name.
 */
const LAZY_CHUNKS = [
  'activity-view',
  'alerts-view',
  'all-services-view',
  'backups-view',
  'bulk-view',
  'certificates-view',
  'command-palette',
  'console-tab',
  'deployments-view',
  'fleet-console-view',
  'fleet-login-dialog',
  'import-dialog',
  'logs-view',
  'preferences-dialog',
  'services-tab',
  'upgrade-dialog',
];

test('the first bundle is under 150 KiB gzipped, and the views opened later are not in it', () => {
  const files = firstBundle(rendererDir);
  const report = bundleReport(files);
  // Printed on a pass too: the figure to compare a change against.
  console.log(`Renderer first bundle:\n${report}`);
  expect(gzippedTotal(files), `the first bundle is over the limit:\n${report}`).toBeLessThan(FIRST_BUNDLE_LIMIT_BYTES);

  const chunk = (name: string) => new RegExp(`^assets/${name}-[\\w-]+\\.js$`);
  const built = readdirSync(join(rendererDir, 'assets')).map((file) => `assets/${file}`);
  for (const name of LAZY_CHUNKS) {
    expect(
      built.filter((file) => chunk(name).test(file)),
      `one built chunk ${name}-*.js`,
    ).toHaveLength(1);
    expect(
      files.filter((file) => chunk(name).test(file.file)),
      `${name} is loaded when first opened, not at start`,
    ).toEqual([]);
  }
  // The palette's library (cmdk, with the Radix dialog it brings) comes with the palette: its
  // attribute names are in no file of the first bundle.
  for (const file of files) expect(readFileSync(join(rendererDir, file.file), 'utf8'), file.file).not.toContain('cmdk-input');
});
