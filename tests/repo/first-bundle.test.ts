import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import {
  bundleReport,
  FIRST_BUNDLE_LIMIT_BYTES,
  firstBundle,
  GZIP_LEVEL,
  gzippedTotal,
  startScripts,
  staticImports,
} from '../support/first-bundle.ts';
import { tempDir } from '../support/helpers.ts';

/**
 * The measure of the renderer's first bundle (tests/support/first-bundle.ts), on small built pages
 * made here. The built app's own figure is checked by tests/browser/bundle-size.spec.ts, where
 * `npm test` has always built first; this file needs no build, so it runs in every unit run.
 */

/** A built page as Vite writes one: an entry, a modulepreload, chunks that import one another. */
async function builtPage(files: Readonly<Record<string, string | Buffer>>): Promise<{ dir: string; cleanup(): Promise<void> }> {
  const dir = await tempDir('paneldeck-first-bundle-');
  await mkdir(join(dir.path, 'assets'));
  for (const [name, content] of Object.entries(files)) await writeFile(join(dir.path, name), content);
  return { dir: dir.path, cleanup: dir.cleanup };
}

const PAGE = `<!doctype html><html><head>
<script type="module" crossorigin src="./assets/index-a1.js"></script>
<link rel="modulepreload" crossorigin href="./assets/shared-b2.js">
<link rel="stylesheet" crossorigin href="./assets/index-c3.css">
</head><body></body></html>`;

// The entry imports `shared` (also preloaded) and `deep` statically, `late` only dynamically.
const ENTRY =
  'const __vite__mapDeps=(i,m=__vite__mapDeps,d=(m.f||(m.f=["./late-d4.js"])))=>i.map(i=>d[i]);import{a as e}from"./shared-b2.js";import"./deep-e5.js";const L=()=>import("./late-d4.js");e(L);';

test('the entry, its modulepreloads and what they import statically count; a chunk reached only by import() does not', async () => {
  const page = await builtPage({
    'index.html': PAGE,
    'assets/index-a1.js': ENTRY,
    'assets/shared-b2.js': 'export{x as a}from"./deeper-f6.js";',
    'assets/deep-e5.js': 'console.log(1)',
    'assets/deeper-f6.js': 'export const x=1;',
    'assets/late-d4.js': 'import{a}from"./shared-b2.js";export const big=a;',
    'assets/index-c3.css': 'body{}',
  });
  try {
    const files = firstBundle(page.dir);
    assert.deepEqual(files.map((file) => file.file).sort(), [
      'assets/deep-e5.js',
      'assets/deeper-f6.js',
      'assets/index-a1.js',
      'assets/shared-b2.js',
    ]);
    const entry = files.find((file) => file.file === 'assets/index-a1.js')!;
    assert.equal(entry.bytes, Buffer.byteLength(ENTRY));
    assert.equal(entry.gzipped, gzipSync(ENTRY, { level: GZIP_LEVEL }).length);
    assert.equal(
      gzippedTotal(files),
      files.map((file) => file.gzipped).reduce((a, b) => a + b),
    );
  } finally {
    await page.cleanup();
  }
});

test('a first bundle over the limit is over it: incompressible bytes past 150 KiB gzip past it', async () => {
  // Random bytes do not compress: 151 KiB of them gzip to more than the limit, which must show.
  const page = await builtPage({
    'index.html': PAGE,
    'assets/index-a1.js': 'import"./shared-b2.js";',
    'assets/shared-b2.js': randomBytes(151 * 1024),
  });
  try {
    const total = gzippedTotal(firstBundle(page.dir));
    assert.ok(total > FIRST_BUNDLE_LIMIT_BYTES, `${total} should be over ${FIRST_BUNDLE_LIMIT_BYTES}`);
    assert.match(bundleReport(firstBundle(page.dir)), /assets\/shared-b2\.js[\s\S]*in 2 file\(s\) \(gzip level 9\); limit 150\.00 KiB/);
  } finally {
    await page.cleanup();
  }
});

test('a file the page or a chunk names but the build lacks throws, never counts as small', async () => {
  const page = await builtPage({ 'index.html': PAGE, 'assets/index-a1.js': 'import"./gone-z9.js";' });
  try {
    assert.throws(() => firstBundle(page.dir), /ENOENT/);
  } finally {
    await page.cleanup();
  }
});

test('the page is read for entry scripts and modulepreloads only; chunks for static imports and re-exports only', () => {
  assert.deepEqual(startScripts(PAGE), ['./assets/index-a1.js', './assets/shared-b2.js']);
  assert.deepEqual(staticImports('import{a as b,c}from"./x.js";import"./y.js";export{d}from"./z.js";export*from"./w.js"'), [
    './x.js',
    './y.js',
    './z.js',
    './w.js',
  ]);
  assert.deepEqual(staticImports('const f=()=>import("./late.js");x(import("./later.js"))'), []);
});
