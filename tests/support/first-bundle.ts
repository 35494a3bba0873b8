import { readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { gzipSync } from 'node:zlib';

/**
 * The renderer's first bundle: the scripts the window must fetch and run before its first screen
 * shows. That is the page's entry script, every script it names for modulepreload, and every
 * script those import statically, however deep; a chunk reached only by `import()` is left out,
 * as it loads when its view is first opened (docs/architecture.md, "What loads at start").
 */

/** The first bundle's ceiling, gzipped: issue 34's goal for a start with no long task. */
export const FIRST_BUNDLE_LIMIT_BYTES = 150 * 1024;

/**
 * zlib's highest level, the size a server or an archive would get at its best; Vite's report
 * uses the default level 6, which comes out a few hundred bytes larger on this bundle.
 */
export const GZIP_LEVEL = 9;

export interface BundleFile {
  /** The path inside the built renderer's folder, as the page names it: `assets/index-abc.js`. */
  file: string;
  bytes: number;
  gzipped: number;
}

const ENTRY_SCRIPT = /<script\b[^>]*\btype="module"[^>]*\bsrc="([^"]+)"/g;
const MODULE_PRELOAD = /<link\b[^>]*\brel="modulepreload"[^>]*\bhref="([^"]+)"/g;
/**
 * A static import or re-export in a built chunk: `import{a as b}from"./x.js"`, `import"./x.js"`,
 * `export{a}from"./x.js"`; never `import("./x.js")`, whose quote follows a parenthesis.
 */
const STATIC_IMPORT = /(?:^|[;\n}])\s*(?:import|export)\s*(?:[\w$*{}\s,]*?\bfrom\s*)?["']([^"']+\.js)["']/g;

/** The paths a page's HTML names as its entry scripts and modulepreloads, relative to the page. */
export function startScripts(html: string): string[] {
  return [...html.matchAll(ENTRY_SCRIPT), ...html.matchAll(MODULE_PRELOAD)].map((match) => match[1]!);
}

/** The paths a built chunk imports statically, as written (relative to the chunk). */
export function staticImports(code: string): string[] {
  return [...code.matchAll(STATIC_IMPORT)].map((match) => match[1]!);
}

/** `./assets/index-abc.js` named from `index.html`, or `./x.js` named from `assets/y.js`, as `assets/…`. */
const resolveFrom = (from: string, path: string) => posix.normalize(posix.join(posix.dirname(from), path));

/**
 * Every script of the first bundle of the built page `page` (default `index.html`) in `rendererDir`,
 * each with its size and its size gzipped at GZIP_LEVEL, in the order found. A file the page or a
 * chunk names but the folder lacks throws: a build that broken must not pass as small.
 */
export function firstBundle(rendererDir: string, page = 'index.html'): BundleFile[] {
  const html = readFileSync(join(rendererDir, page), 'utf8');
  const queue = startScripts(html).map((path) => resolveFrom(page, path));
  const seen = new Set<string>();
  const files: BundleFile[] = [];
  while (queue.length > 0) {
    const file = queue.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const code = readFileSync(join(rendererDir, file));
    files.push({ file, bytes: code.length, gzipped: gzipSync(code, { level: GZIP_LEVEL }).length });
    queue.push(...staticImports(code.toString('utf8')).map((path) => resolveFrom(file, path)));
  }
  return files;
}

/** The first bundle's total, gzipped. */
export const gzippedTotal = (files: readonly BundleFile[]) => files.reduce((sum, file) => sum + file.gzipped, 0);

/** One line a file, largest first, then the total against the limit: what a failure prints. */
export function bundleReport(files: readonly BundleFile[]): string {
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(2)} KiB`;
  const lines = [...files]
    .sort((a, b) => b.gzipped - a.gzipped)
    .map((file) => `  ${kb(file.gzipped).padStart(11)} gzipped  ${kb(file.bytes).padStart(11)}  ${file.file}`);
  const total = gzippedTotal(files);
  return [
    ...lines,
    `  ${kb(total).padStart(11)} gzipped in ${files.length} file(s) (gzip level ${GZIP_LEVEL}); limit ${kb(FIRST_BUNDLE_LIMIT_BYTES)}`,
  ].join('\n');
}
