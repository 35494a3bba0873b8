import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire, registerHooks, SourceMap, type SourceMapPayload } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, resolve } from 'node:path';

/**
 * Audits the built app with Electronegativity (Doyensec's Electron security linter) and fails
 * on any finding of medium severity or above, or on a file it could not parse. `npm test` runs
 * it after the build; by hand: `npm run build && npm run electronegativity [-- file...]`
 * (default: the three files below).
 *
 * An exception is written in the TypeScript source, on the line the finding comes from:
 * `// eng-disable CHECK_ID [CHECK_ID...]: one-line reason`. The bundler keeps no line comments,
 * so this script carries each such comment to every bundle line built from that source line
 * (through the bundle's source map), where Electronegativity reads it. A reason is required.
 */

/** What the packaged app runs: the main bundle, the two preload bundles and the two pages (the window's, main's confirmation). */
const DEFAULT_TARGETS = [
  'dist/main/main.js',
  'dist/preload/preload.cjs',
  'dist/preload/confirm-preload.cjs',
  'dist/renderer/index.html',
  'dist/renderer/confirm/confirm.html',
];
const projectRoot = resolve(import.meta.dirname, '..');
const require = createRequire(import.meta.url);

/** The parts of an Electronegativity issue this script reads (its programmatic API is untyped). */
interface Level {
  name: string;
  value: number;
}
interface Issue {
  id: string;
  file: string;
  location?: { line?: number; column?: number };
  severity: Level;
  confidence: Level;
  description: string;
  manualReview?: boolean;
}
interface ScanResult {
  issues: Issue[];
  errors: { file: string; message: string; tolerable: boolean }[];
}
type Run = (options: Record<string, unknown>, forCli: boolean) => Promise<ScanResult>;

/** Electronegativity's own severity scale: INFORMATIONAL 0, LOW 1, MEDIUM 2, HIGH 3. */
const MEDIUM = 2;
/**
 * Electronegativity rates an explicit `nodeIntegration: true` informational (it raises it only
 * when remote content is loaded too); no page of this app may have Node, so these always fail.
 */
const FAIL_AT_ANY_SEVERITY = new Set([
  'NODE_INTEGRATION_JS_CHECK',
  'NODE_INTEGRATION_HTML_CHECK',
  'NODE_INTEGRATION_ATTACH_EVENT_JS_CHECK',
]);
const fails = (issue: Issue): boolean => issue.severity.value >= MEDIUM || FAIL_AT_ANY_SEVERITY.has(issue.id);

/** An `eng-disable` comment in a source file, as Electronegativity's own pattern reads it. */
interface Disable {
  checks: string[];
  reason: string;
  comment: string;
  /** `path:line` in the project. */
  at: string;
  /** The bundle lines (`path:line`) it was carried to. */
  carriedTo: Set<string>;
}
const DISABLE = /\/\/[ \t]*eng-disable[ \t]+([\w \t]+?)(?::[ \t]*(.*))?$/;

/**
 * Two redirections, only for Electronegativity's own requires:
 * - its TypeScript parser (@typescript-eslint/typescript-estree 4, hoisted to the top level)
 *   would load this project's TypeScript 7, which has no JavaScript API, and crash at load;
 *   it gets the TypeScript 4.2 that Electronegativity ships for it instead;
 * - it fetches translations from the network at start ('got'); the scan must not depend on
 *   the network, so that fetch answers "not found" at once and the bundled English is used
 *   (the only other caller of 'got' is the release-list check, which scan() leaves out).
 */
function redirectElectronegativityDependencies(): void {
  const engRoot = dirname(require.resolve('@doyensec/electronegativity/package.json'));
  const ownTypescript = require.resolve('typescript', { paths: [engRoot] });
  const noNetworkGot = 'paneldeck-offline:got';
  registerHooks({
    resolve(specifier, context, nextResolve) {
      const parent = context.parentURL ?? '';
      if (specifier === 'typescript' && /\/node_modules\/(@typescript-eslint|tsutils)\//.test(parent)) {
        return nextResolve(ownTypescript, context);
      }
      if (specifier === 'got' && parent.includes('/@doyensec/electronegativity/')) {
        return { url: noNetworkGot, format: 'commonjs', shortCircuit: true };
      }
      return nextResolve(specifier, context);
    },
    load(url, context, nextLoad) {
      if (url !== noNetworkGot) return nextLoad(url, context);
      return { format: 'commonjs', shortCircuit: true, source: 'module.exports = async () => ({ statusCode: 404 });' };
    },
  });
}

/** The `eng-disable` comments of one source file, by 0-based line. */
function disablesIn(sourcePath: string, cache: Map<string, Map<number, Disable>>): Map<number, Disable> {
  const known = cache.get(sourcePath);
  if (known) return known;
  const found = new Map<number, Disable>();
  const lines = existsSync(sourcePath) ? readFileSync(sourcePath, 'utf8').split('\n') : [];
  lines.forEach((line, index) => {
    const match = DISABLE.exec(line);
    if (!match?.[1]) return;
    const checks = match[1].trim().split(/[ \t]+/);
    const at = `${relative(projectRoot, sourcePath)}:${index + 1}`;
    found.set(index, { checks, reason: (match[2] ?? '').trim(), comment: `// eng-disable ${checks.join(' ')}`, at, carriedTo: new Set() });
  });
  cache.set(sourcePath, found);
  return found;
}

/**
 * The bundle's text with each source line's `eng-disable` comment appended to the bundle lines
 * built from it. Only whole-line mappings that start on the line itself count, so a line is
 * never tied to the previous line's last source position.
 */
function withSourceDisables(bundlePath: string, text: string, used: Map<string, Disable>): string {
  const mapPath = `${bundlePath}.map`;
  if (!existsSync(mapPath)) return text;
  const payload = JSON.parse(readFileSync(mapPath, 'utf8')) as SourceMapPayload;
  const map = new SourceMap(payload);
  const sourceDir = resolve(dirname(mapPath), payload.sourceRoot ?? '');
  const cache = new Map<string, Map<number, Disable>>();
  const lines = text.split('\n');
  return lines
    .map((line, lineIndex) => {
      const comments = new Set<string>();
      for (let column = 0; column < line.length; column++) {
        const entry = map.findEntry(lineIndex, column);
        if (!('originalSource' in entry) || entry.generatedLine !== lineIndex) continue;
        const disable = disablesIn(resolve(sourceDir, entry.originalSource), cache).get(entry.originalLine);
        if (!disable) continue;
        // Line 1 is where Electronegativity reads exceptions for the whole file: never widen one.
        if (lineIndex === 0)
          throw new Error(`${disable.at}: its eng-disable would land on line 1 of ${bundlePath} and cover the whole file`);
        comments.add(disable.comment);
        disable.carriedTo.add(`${relative(projectRoot, bundlePath)}:${lineIndex + 1}`);
        used.set(disable.at, disable);
      }
      return comments.size ? `${line} ${[...comments].join(' ')}` : line;
    })
    .join('\n');
}

/**
 * Copies the targets into one folder, so that the global checks (CSP, sandbox, ...) see them
 * together. A script is named .ts: Electronegativity reads only .js/.ts/.html names, and its
 * JavaScript path analyses scopes with a 2016 traverser that stops at class private fields,
 * while its TypeScript path (Babel's parser, ESLint's traverser) reads today's syntax.
 */
function stage(targets: string[], carryDisables: boolean, used: Map<string, Disable>): { dir: string; originals: Map<string, string> } {
  const dir = mkdtempSync(join(tmpdir(), 'paneldeck-electronegativity-'));
  const originals = new Map<string, string>();
  targets.forEach((target, index) => {
    const source = resolve(projectRoot, target);
    if (!existsSync(source)) throw new Error(`${target} does not exist: run \`npm run build\` first`);
    const copy = join(dir, String(index), basename(source).replace(/\.[cm]?js$/, '.ts'));
    mkdirSync(dirname(copy), { recursive: true });
    const text = readFileSync(source, 'utf8');
    writeFileSync(copy, carryDisables ? withSourceDisables(source, text, used) : text);
    originals.set(copy, relative(projectRoot, source));
  });
  return { dir, originals };
}

async function scan(run: Run, targets: string[], carryDisables: boolean, used: Map<string, Disable>): Promise<ScanResult> {
  const electronVersion = (JSON.parse(readFileSync(join(projectRoot, 'node_modules/electron/package.json'), 'utf8')) as { version: string })
    .version;
  const { dir, originals } = stage(targets, carryDisables, used);
  try {
    // forCli false: no table, no progress bar; the issues come back as objects.
    const result = await run(
      {
        input: dir,
        electronVersionOverride: electronVersion,
        // It compares package.json's Electron with GitHub's release list: a freshness check that
        // needs the network and sees no package.json here. Electron updates are a dependency matter.
        excludeFromScan: ['AvailableSecurityFixesGlobalCheck'],
      },
      false,
    );
    const back = (file: string): string => originals.get(file) ?? file;
    return {
      issues: result.issues.map((issue) => ({ ...issue, file: back(issue.file) })),
      errors: result.errors.map((error) => ({ ...error, file: back(error.file) })),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function where(issue: Issue): string {
  const line = issue.location?.line;
  return line === undefined || issue.file === 'N/A' ? 'the whole app' : `${issue.file}:${line}:${issue.location?.column ?? 0}`;
}
const key = (issue: Issue): string => `${issue.id} ${where(issue)}`;

async function main(): Promise<number> {
  const targets = process.argv.length > 2 ? process.argv.slice(2) : DEFAULT_TARGETS;
  console.log(`Electronegativity over ${targets.join(', ')}`);
  redirectElectronegativityDependencies();
  const run = require('@doyensec/electronegativity') as Run;

  // Twice: without the exceptions, to show what each one hides, then as judged.
  const used = new Map<string, Disable>();
  const raw = await scan(run, targets, false, new Map());
  const result = await scan(run, targets, true, used);

  const remaining = new Set(result.issues.map(key));
  const issues = [...result.issues].sort(
    (a, b) => Number(fails(b)) - Number(fails(a)) || b.severity.value - a.severity.value || a.id.localeCompare(b.id),
  );
  for (const issue of issues) {
    const review = issue.manualReview ? ' (manual review)' : '';
    const mark = fails(issue) ? 'FAIL' : 'ok  ';
    console.log(`  ${mark} ${issue.severity.name.padEnd(13)} ${issue.confidence.name.padEnd(9)} ${issue.id}  ${where(issue)}${review}`);
    console.log(`      ${issue.description}`);
  }

  let failures = 0;
  const hidden = raw.issues.filter((issue) => !remaining.has(key(issue)));
  for (const disable of used.values()) {
    const hides = hidden.filter(
      (issue) =>
        disable.carriedTo.has(`${issue.file}:${issue.location?.line}`) && disable.checks.some((check) => check.toUpperCase() === issue.id),
    );
    const what = hides.map((issue) => `${issue.severity.name} ${issue.id} at ${where(issue)}`).join('; ') || 'nothing (no longer needed?)';
    console.log(`  disabled inline at ${disable.at}: ${what}`);
    if (disable.reason) console.log(`      reason: ${disable.reason}`);
    else {
      console.log('      NO REASON: write `// eng-disable CHECK_ID: why this is safe`');
      failures++;
    }
  }
  // A file it could not parse was not checked at all: that must not read as clean.
  for (const error of result.errors.filter((error) => !error.tolerable)) {
    console.log(`  NOT CHECKED ${error.file}: ${error.message}`);
    failures++;
  }

  const serious = issues.filter((issue) => issue.severity.value >= MEDIUM).length;
  const node = issues.filter((issue) => fails(issue) && issue.severity.value < MEDIUM).length;
  const minor = issues.length - serious - node;
  const nodeText = node > 0 ? `, ${node} giving a page Node` : '';
  console.log(
    `electronegativity: ${serious} finding${serious === 1 ? '' : 's'} of medium severity or above${nodeText} (${minor} low/informational, ${used.size} disabled inline)`,
  );
  return serious + node + failures > 0 ? 1 : 0;
}

process.exitCode = await main();
