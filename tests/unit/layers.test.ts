import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { test } from 'node:test';

/**
 * The arrows between folders point one way. Each source file's import lines are read (static
 * imports, `export ... from`, dynamic `import()`), resolved, and judged against the table below.
 * A new folder under electron/core/ must be added to the table, or this test fails.
 */
const root = resolve(import.meta.dirname, '..', '..');

/** What each layer of the core may import, besides itself and `shared/`. */
export const CORE_LAYERS: Readonly<Record<string, readonly string[]>> = {
  common: [],
  secrets: ['common'],
  log: ['common', 'secrets'],
  net: ['common', 'secrets', 'log'],
  easypanel: ['common', 'secrets', 'log', 'net'],
  storage: ['common', 'secrets', 'log'],
  schedule: ['common', 'log'],
  context: ['common', 'secrets', 'log', 'net', 'easypanel', 'storage'],
  activity: ['common', 'log', 'storage', 'context'],
  'sign-in': ['common', 'secrets', 'log', 'net', 'easypanel', 'storage', 'schedule', 'context', 'activity'],
  writes: ['common', 'secrets', 'log', 'net', 'easypanel', 'storage', 'context', 'activity', 'sign-in'],
  panels: ['common', 'secrets', 'log', 'net', 'easypanel', 'storage', 'context', 'activity', 'sign-in'],
  services: ['common', 'secrets', 'log', 'net', 'easypanel', 'storage', 'schedule', 'context', 'activity', 'sign-in', 'writes'],
  checks: ['common', 'secrets', 'log', 'net', 'easypanel', 'storage', 'schedule', 'context', 'activity', 'sign-in', 'services'],
  certificates: ['common', 'secrets', 'log', 'net', 'easypanel', 'storage', 'schedule', 'context', 'activity', 'sign-in'],
  backups: ['common', 'secrets', 'log', 'net', 'easypanel', 'storage', 'schedule', 'context', 'activity', 'sign-in', 'writes'],
  console: ['common', 'secrets', 'log', 'net', 'easypanel', 'storage', 'schedule', 'context', 'activity', 'sign-in', 'writes'],
  upgrades: ['common', 'secrets', 'log', 'net', 'easypanel', 'storage', 'schedule', 'context', 'activity', 'sign-in', 'writes'],
  transfer: ['common', 'net', 'easypanel', 'storage', 'context', 'sign-in', 'panels'],
  'fleet-files': ['common', 'secrets', 'log', 'storage', 'context', 'activity', 'sign-in', 'panels'],
  app: ['common', 'log', 'storage', 'context', 'sign-in', 'transfer'],
  wiring: [
    'common',
    'secrets',
    'log',
    'net',
    'easypanel',
    'storage',
    'schedule',
    'context',
    'activity',
    'sign-in',
    'panels',
    'services',
    'checks',
    'certificates',
    'backups',
    'console',
    'transfer',
    'app',
    'writes',
    'upgrades',
    'fleet-files',
  ],
};

/**
 * The window's folders: `window/` (stores, events, commands) and `ui/` (primitives, formatting, over
 * the window's hooks) are layers whose files anyone above may import; every other folder is a feature, which the features
 * allowed here reach only through its `index.ts` (free of React) or its `views.tsx` (its React
 * parts), never an inner file. `app/` is the shell over them all; `main.tsx` starts it.
 */
export const RENDERER_FOLDERS: Readonly<Record<string, readonly string[]>> = {
  window: [],
  // Main's own confirmation of a write: a page of its own, reaching no other folder of the window.
  confirm: [],
  ui: ['window'],
  'sign-in': ['ui', 'window'],
  session: ['ui', 'window', 'sign-in'],
  upgrades: ['ui', 'window'],
  'panel-list': ['ui', 'window', 'sign-in', 'upgrades'],
  activity: ['ui', 'window', 'panel-list'],
  alerts: ['ui', 'window', 'activity'],
  console: ['ui', 'window', 'activity', 'panel-list'],
  services: ['ui', 'window', 'panel-list'],
  logs: ['ui', 'window', 'services'],
  deployments: ['ui', 'window', 'logs'],
  transfer: ['ui', 'window'],
  preferences: ['ui', 'window'],
  certificates: ['ui', 'window'],
  backups: ['ui', 'window', 'panel-list'],
  panel: ['ui', 'window', 'sign-in', 'session', 'console', 'deployments', 'logs', 'services'],
  app: [
    'ui',
    'window',
    'sign-in',
    'session',
    'panel-list',
    'activity',
    'alerts',
    'console',
    'services',
    'logs',
    'deployments',
    'transfer',
    'preferences',
    'certificates',
    'upgrades',
    'backups',
    'panel',
  ],
};
const RENDERER_LAYERS = new Set(['ui', 'window']);
/** A feature's doors: what other folders may import of it. */
const FEATURE_DOORS = new Set(['index.ts', 'views.tsx']);

/** Why a file of the window may import the window's file `target`, or null when it may. */
function rendererRefusal(file: string, target: string): string | null {
  const parts = (path: string) => path.slice('renderer/'.length).split('/');
  const [fromFolder, ...fromRest] = parts(file);
  const [toFolder, ...toRest] = parts(target);
  if (fromRest.length === 0)
    return toRest.length === 0 || toFolder === 'app' || toFolder === 'window'
      ? null
      : `renderer/${fromFolder} starts the app: it imports app/ and window/ only`;
  if (toRest.length === 0) return `renderer/${toFolder} is the entry point: nothing imports it`;
  if (fromFolder === toFolder) return null;
  const allowed = RENDERER_FOLDERS[fromFolder!];
  if (!allowed) return `renderer/${fromFolder} is not a folder of RENDERER_FOLDERS in tests/unit/layers.test.ts`;
  if (!RENDERER_FOLDERS[toFolder!]) return `renderer/${toFolder} is not a folder of RENDERER_FOLDERS in tests/unit/layers.test.ts`;
  if (!allowed.includes(toFolder!))
    return `renderer/${fromFolder} may import ${allowed.join(', ') || 'no other folder'}, not renderer/${toFolder}`;
  if (RENDERER_LAYERS.has(toFolder!)) return null;
  return toRest.length === 1 && FEATURE_DOORS.has(toRest[0]!)
    ? null
    : `renderer/${toFolder} is a feature: other folders import its index.ts or views.tsx, not ${toRest.join('/')}`;
}

export interface ImportLine {
  file: string;
  specifier: string;
}

const IMPORT =
  /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|(?:^|\n)\s*import\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

export function importsOf(source: string): string[] {
  return [...source.matchAll(IMPORT)].map((match) => match[1] ?? match[2] ?? match[3]!);
}

function sourceFiles(folder: string): string[] {
  return readdirSync(join(root, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)).split(sep).join('/'));
}

/** Why `file` may not import `specifier`, or null when it may. Paths are relative to the repository, with `/`. */
export function refusal(file: string, specifier: string): string | null {
  const isPackage = !specifier.startsWith('.');
  const target = isPackage
    ? null
    : relative(root, resolve(root, dirname(file), specifier))
        .split(sep)
        .join('/');
  const inFolder = (path: string, folder: string) => path.startsWith(`${folder}/`);
  if (inFolder(file, 'shared')) {
    if (isPackage)
      return specifier === 'electron' || specifier.startsWith('node:') ? 'shared/ runs in every process: no Electron, no Node' : null;
    return inFolder(target!, 'shared') ? null : 'shared/ imports only shared/';
  }
  if (inFolder(file, 'renderer')) {
    if (isPackage) return specifier === 'electron' || specifier.startsWith('node:') ? 'the renderer has no Electron and no Node' : null;
    if (inFolder(target!, 'shared')) return null;
    return inFolder(target!, 'renderer') ? rendererRefusal(file, target!) : 'the renderer imports only renderer/ and shared/';
  }
  if (inFolder(file, 'electron/preload')) {
    if (isPackage) return specifier === 'electron' ? null : 'the preload is bundled alone: only electron and shared/';
    return inFolder(target!, 'electron/preload') || inFolder(target!, 'shared') ? null : 'the preload imports only shared/';
  }
  if (inFolder(file, 'electron/main')) {
    if (isPackage) return null;
    if (inFolder(target!, 'electron/main') || inFolder(target!, 'shared') || target === 'electron/core/index.ts') return null;
    return 'electron/main imports the core through electron/core/index.ts only';
  }
  if (inFolder(file, 'electron/core')) {
    if (isPackage) return specifier === 'electron' ? 'the core runs under plain Node: no Electron' : null;
    if (inFolder(target!, 'shared')) return null;
    if (!inFolder(target!, 'electron/core')) return 'the core imports only itself and shared/';
    const layerOf = (path: string) => path.slice('electron/core/'.length).split('/')[0]!;
    if (file === 'electron/core/index.ts') return null;
    const from = layerOf(file);
    const to = layerOf(target!);
    const allowed = CORE_LAYERS[from];
    if (!allowed) return `electron/core/${from} is not a layer of the table in tests/unit/layers.test.ts`;
    if (to === from) return null;
    if (target === 'electron/core/index.ts') return 'the core imports its own layers, not its index';
    return allowed.includes(to)
      ? null
      : `core/${from} may import ${allowed.length ? allowed.join(', ') : 'no other layer'}, not core/${to}`;
  }
  return null;
}

function violations(folders: readonly string[]): string[] {
  const found: string[] = [];
  for (const folder of folders) {
    for (const file of sourceFiles(folder)) {
      for (const specifier of importsOf(readFileSync(join(root, file), 'utf8'))) {
        const why = refusal(file, specifier);
        if (why) found.push(`${file} imports ${specifier}: ${why}`);
      }
    }
  }
  return found;
}

test('every import in shared/, renderer/, electron/ points the way the layers allow', () => {
  assert.deepEqual(violations(['shared', 'renderer', 'electron']), []);
});

/** The imports of a source that load code: all but the `import type` and `export type` lines. */
function valueImportsOf(source: string): string[] {
  return importsOf(source.replace(/(?:^|\n)\s*(?:import|export)\s+type\s[^'"]*?from\s*['"][^'"]+['"]/g, ''));
}

/** The files under `folders` and every file they load, transitively; the packages named on the way, by the file naming them. */
function loadedFrom(folders: readonly string[]): Map<string, string> {
  const packages = new Map<string, string>();
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file) || !/\.tsx?$/.test(file)) return;
    seen.add(file);
    for (const specifier of valueImportsOf(readFileSync(join(root, file), 'utf8'))) {
      if (!specifier.startsWith('.')) packages.set(specifier, file);
      else
        visit(
          relative(root, resolve(root, dirname(file), specifier))
            .split(sep)
            .join('/'),
        );
    }
  };
  for (const folder of folders) for (const file of sourceFiles(folder)) visit(file);
  return packages;
}

test('zod is main’s: nothing the renderer or the preload loads imports it (the schemas live in shared/schemas/schemas.ts and shared/schemas/service-action-schemas.ts)', () => {
  const packages = loadedFrom(['renderer', 'electron/preload']);
  assert.ok(packages.has('react'), 'the walk reaches the packages the renderer loads');
  assert.equal(packages.get('zod'), undefined, `zod is loaded by ${packages.get('zod')}`);
  assert.ok(loadedFrom(['electron/core']).has('zod'), 'the walk sees zod where main loads it');
});

test('every folder of the core is a layer of the table, with a README saying what it may import', () => {
  const folders = readdirSync(join(root, 'electron/core'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
  assert.deepEqual(folders.toSorted(), Object.keys(CORE_LAYERS).toSorted());
  for (const folder of folders) {
    const readme = readFileSync(join(root, 'electron/core', folder, 'README.md'), 'utf8');
    for (const layer of CORE_LAYERS[folder]!)
      assert.match(readme, new RegExp(`\\b${layer}/`), `electron/core/${folder}/README.md names ${layer}/`);
  }
  const loose = readdirSync(join(root, 'electron/core'), { withFileTypes: true }).filter(
    (entry) => entry.isFile() && entry.name.endsWith('.ts'),
  );
  assert.deepEqual(
    loose.map((entry) => entry.name),
    ['index.ts'],
  );
});

test('every folder of the window is in RENDERER_FOLDERS', () => {
  const folders = readdirSync(join(root, 'renderer'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
  assert.deepEqual(folders.toSorted(), Object.keys(RENDERER_FOLDERS).toSorted());
});

test('the judge refuses an arrow the wrong way, so the test above can fail', () => {
  assert.match(refusal('electron/core/storage/panel-registry.ts', '../wiring/create-core.ts') ?? '', /core\/storage may import/);
  assert.match(refusal('electron/core/common/address.ts', '../net/http-client.ts') ?? '', /no other layer/);
  assert.match(refusal('electron/main/main.ts', '../core/log/log.ts') ?? '', /index\.ts only/);
  assert.match(refusal('electron/core/storage/panel-registry.ts', '../services/service-actions.ts') ?? '', /core\/storage may import/);
  assert.match(
    refusal('renderer/panel/panel-tabs.tsx', '../services/services-tab.tsx') ?? '',
    /is a feature: other folders import its index\.ts or views\.tsx/,
  );
  assert.match(refusal('renderer/services/services-tab.tsx', '../panel/views.tsx') ?? '', /renderer\/services may import/);
  assert.match(refusal('renderer/window/window-store.ts', '../ui/row-menu.tsx') ?? '', /renderer\/window may import no other folder/);
  assert.equal(refusal('renderer/panel/panel-tabs.tsx', '../services/views.tsx'), null);
  assert.equal(refusal('renderer/panel/panel-tabs.tsx', '../ui/row-menu.tsx'), null);
  assert.match(refusal('renderer/app/app.tsx', '../../electron/core/index.ts') ?? '', /renderer imports only/);
  assert.match(refusal('shared/types.ts', 'node:fs') ?? '', /no Electron, no Node/);
  assert.match(refusal('electron/core/net/node-fetch.ts', 'electron') ?? '', /no Electron/);
  assert.equal(refusal('electron/core/wiring/create-core.ts', '../storage/panel-registry.ts'), null);
  assert.equal(refusal('electron/main/main.ts', '../core/index.ts'), null);
  assert.deepEqual(
    importsOf("import a from './a.ts';\nexport { b } from '../b.ts';\nconst c = await import('./c.ts');\nimport './d.css';"),
    ['./a.ts', '../b.ts', './c.ts', './d.css'],
  );
});
