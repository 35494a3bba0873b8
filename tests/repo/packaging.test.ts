import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, matchesGlob } from 'node:path';
import { test } from 'node:test';

/**
 * What can be checked of packaging without running it (it downloads Electron, which cannot be
 * reached here): electron-builder.yml against electron-builder's own schema, and which files its
 * `files` patterns put into the app.
 */

const root = join(import.meta.dirname, '..', '..');
const require = createRequire(import.meta.url);
// electron-builder logs "loaded configuration" to stdout, which node:test reads as its own
// protocol from a test file's process: a line there can break the run. Its lines go nowhere here.
(require('builder-util/out/log.js') as { log: { stream: { write(text: string): boolean } } }).log.stream = { write: () => true };

interface BuilderConfig {
  /** As loaded: the patterns of electron-builder.yml, wrapped in file sets. */
  files: (string | { filter?: string[] })[];
  extraMetadata?: { main?: string };
  afterPack?: string;
  asar?: boolean;
  [key: string]: unknown;
}

/** electron-builder's own loading and validation (app-builder-lib), as `electron-builder` runs them. */
async function loadConfig(override?: Record<string, unknown>): Promise<BuilderConfig> {
  const { getConfig, validateConfiguration } = require('app-builder-lib/out/util/config/config.js') as {
    getConfig(projectDir: string, configPath: string | null, fromOptions: unknown): Promise<BuilderConfig>;
    validateConfiguration(config: unknown, logger: unknown): Promise<void>;
  };
  const { DebugLogger } = require('builder-util/out/DebugLogger.js') as { DebugLogger: new (enabled: boolean) => unknown };
  const config = { ...(await getConfig(root, null, null)), ...override };
  await validateConfiguration(config, new DebugLogger(false));
  return config;
}

test("electron-builder.yml matches electron-builder's schema; a wrong option is refused by the same check", async () => {
  const config = await loadConfig();
  assert.equal(config.asar, true);
  assert.equal(config.afterPack, './scripts/after-pack.ts');
  await assert.rejects(loadConfig({ asar: 'yes' }), /configuration object that does not match the API schema/);
  await assert.rejects(loadConfig({ fiels: [] }), /unknown property 'fiels'/);
});

test('the app starts from the bundled main, and electron-builder is pinned, not whatever npx finds', async () => {
  const config = await loadConfig();
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    main: string;
    devDependencies: Record<string, string>;
    scripts: Record<string, string>;
  };
  assert.equal(config.extraMetadata?.main, pkg.main);
  assert.match(pkg.devDependencies['electron-builder'] ?? '', /^\d+\.\d+\.\d+$/, 'an exact version');
  assert.match(pkg.scripts.dist ?? '', /npm run build && electron-builder --publish never/);
});

/**
 * `files` read as electron-builder reads them: patterns in order, a later one wins, `!` excludes.
 * Applied to every file in the repository and to what the build writes.
 */
test('only the built app goes in: package.json and dist/ without source maps; no sources, tests or scripts', async () => {
  const files = (await loadConfig()).files.flatMap((set) => (typeof set === 'string' ? [set] : (set.filter ?? [])));
  assert.ok(files.length > 0);
  const included = (path: string) => {
    let inside = false;
    for (const pattern of files) {
      const exclude = pattern.startsWith('!');
      if (matchesGlob(path, exclude ? pattern.slice(1) : pattern)) inside = !exclude;
    }
    return inside;
  };
  const tracked = execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' }).split('\n').filter(Boolean);
  assert.ok(tracked.length > 100, 'the repository lists its files');
  const built = [
    'dist/main/main.js',
    'dist/main/main.js.map',
    'dist/preload/preload.cjs',
    'dist/preload/preload.cjs.map',
    'dist/preload/confirm-preload.cjs',
    'dist/preload/confirm-preload.cjs.map',
    'dist/renderer/index.html',
    'dist/renderer/confirm/confirm.html',
    'dist/renderer/assets/index-abc123.js',
    'dist/renderer/assets/index-abc123.css',
  ];
  const inApp = [...tracked, ...built].filter(included).sort();
  assert.deepEqual(inApp, [
    'dist/main/main.js',
    'dist/preload/confirm-preload.cjs',
    'dist/preload/preload.cjs',
    'dist/renderer/assets/index-abc123.css',
    'dist/renderer/assets/index-abc123.js',
    'dist/renderer/confirm/confirm.html',
    'dist/renderer/index.html',
    'package.json',
  ]);
});

/**
 * Main's bundle leaves npm packages to node_modules (vite.config.ts), so each one it imports must
 * be in the app: electron-builder copies in only what its collector of production dependencies
 * returns. Both read here as packaging runs them: vite's build of main (not written), and the
 * collector over `npm ls`. `ws`'s optional native add-ons (bufferutil, utf-8-validate) are
 * neither installed nor needed: it falls back to JavaScript without them.
 */
test('every package the main bundle imports is one electron-builder packs; ws is among them, without native add-ons', async () => {
  const { build } = await import('vite');
  const built = await build({ root, configFile: join(root, 'vite.config.ts'), mode: 'main', logLevel: 'silent', build: { write: false } });
  const chunks = (Array.isArray(built) ? built : [built]).flatMap((result) => ('output' in result ? result.output : []));
  const imported = new Set(chunks.flatMap((chunk) => (chunk.type === 'chunk' ? [...chunk.imports, ...chunk.dynamicImports] : [])));
  // Electron itself and Node's own modules come with the runtime.
  const packages = [...imported].filter((name) => name !== 'electron' && !name.startsWith('node:')).sort();
  assert.ok(packages.includes('ws') && packages.includes('zod'), `the bundle leaves its packages external: ${packages.join(', ')}`);

  const { getCollectorByPackageManager } = require('app-builder-lib/out/node-module-collector/index.js') as {
    getCollectorByPackageManager(
      pm: string,
      dir: string,
      temp: unknown,
    ): {
      getNodeModules(options: { packageName: string }): Promise<{ nodeModules: { name: string; dependencies?: { name: string }[] }[] }>;
    };
  };
  const { TmpDir } = require('temp-file') as { TmpDir: new () => { cleanup(): Promise<void> } };
  const temp = new TmpDir();
  try {
    const { nodeModules } = await getCollectorByPackageManager('npm', root, temp).getNodeModules({ packageName: 'paneldeck' });
    const packed = new Set(nodeModules.map((module) => module.name));
    assert.deepEqual(
      packages.filter((name) => !packed.has(name)),
      [],
      'imported by main but left out of the app',
    );
    const ws = nodeModules.find((module) => module.name === 'ws');
    assert.deepEqual(ws?.dependencies ?? [], []);
    assert.ok(!packed.has('bufferutil') && !packed.has('utf-8-validate'));
  } finally {
    await temp.cleanup();
  }
});
