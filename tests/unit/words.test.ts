import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { test } from 'node:test';

/**
 * One word per idea (docs/glossary.md): the words the glossary retired may not come back as a name
 * in electron/, renderer/ or shared/. Read with a regex, not a parser: every identifier of the code
 * (declarations, parameters, properties, imports), every string that is one (a quoted key), and
 * every file and folder name. Comments and prose are free to say what a thing was called.
 */
const root = resolve(import.meta.dirname, '..', '..');
const FOLDERS = ['electron', 'renderer', 'shared'];

/**
 * Each retired word as the runs of words it is spelt in (camelCase and kebab-case alike split into
 * them), and the word to say. (`PanelServices`, a panel's Easypanel services, is not `PanelService`.)
 */
const RETIRED: readonly { spellings: readonly (readonly string[])[]; say: string }[] = [
  { spellings: [['board'], ['boards']], say: 'panel list (its list and table layouts)' },
  {
    spellings: [
      ['fleet', 'view'],
      ['fleet', 'views'],
    ],
    say: 'panel list rows, or a fleet-wide view',
  },
  { spellings: [['fleet', 'table']], say: 'table layout' },
  {
    spellings: [
      ['api', 'style'],
      ['api', 'styles'],
    ],
    say: 'generation',
  },
  { spellings: [['panel', 'service']], say: 'core' },
  { spellings: [['service', 'context']], say: 'core context' },
  { spellings: [['check', 'input']], say: 'validate input' },
];

/**
 * What must keep a retired name, by file and name, and why. Nothing else may.
 */
const ALLOWED: readonly { file: string; name: string; why: string }[] = [
  // The name scripts outside this repository start the core by (index.ts re-exports createCore as it).
  { file: 'electron/core/index.ts', name: 'createPanelService', why: 'kept for scripts outside' },
  // settings.json files from before the rename keep the panel list's settings under this key; it is read as `panelList`.
  { file: 'electron/core/storage/app-settings.ts', name: 'boardView', why: 'the key older settings files hold' },
  // panels.json up to format 3 and exports of format 1 hold a panel's generation under this field; it is read as `generation`.
  { file: 'shared/generations.ts', name: 'apiStyle', why: 'the field older files hold' },
];

/** The words of a name: `fleetViewRows` and `fleet-view-rows` are both fleet, view, rows. */
function wordsOf(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter((word) => word !== '')
    .map((word) => word.toLowerCase());
}

function retiredIn(name: string): { word: string; say: string } | undefined {
  const words = wordsOf(name);
  for (const { spellings, say } of RETIRED) {
    const spelling = spellings.find((run) => words.some((_, start) => run.every((word, offset) => words[start + offset] === word)));
    if (spelling) return { word: spelling.join(' '), say };
  }
  return undefined;
}

/** The names in a source file: identifiers outside comments and strings, and strings that are one identifier. */
function namesIn(source: string): string[] {
  const names: string[] = [];
  // Comments, strings (template literals whole, their ${} included: names there are still found as text) and the code between them.
  const token = /\/\/[^\n]*|\/\*[\s\S]*?\*\/|'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"|`(?:\\.|[^`\\])*`|[A-Za-z_$][\w$]*/g;
  for (const [text] of source.matchAll(token)) {
    if (text.startsWith('//') || text.startsWith('/*')) continue;
    if (/^['"]/.test(text)) {
      const inner = text.slice(1, -1);
      if (/^[A-Za-z_$][\w$]*$/.test(inner)) names.push(inner);
    } else if (text.startsWith('`')) {
      for (const [expression] of text.matchAll(/\$\{[^}]*\}/g)) names.push(...(expression.slice(2, -1).match(/[A-Za-z_$][\w$]*/g) ?? []));
    } else names.push(text);
  }
  return names;
}

function* filesUnder(folder: string): Generator<string> {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) yield* filesUnder(path);
    else yield path;
  }
}

function findings(): string[] {
  const found: string[] = [];
  for (const folder of FOLDERS) {
    for (const path of filesUnder(join(root, folder))) {
      const file = relative(root, path).split('\\').join('/');
      for (const part of file.split('/')) {
        const retired = retiredIn(part);
        if (retired) found.push(`${file}: the file name "${part}" says ${retired.word}; say ${retired.say}`);
      }
      if (!/\.(?:ts|tsx)$/.test(file)) continue;
      const seen = new Set<string>();
      for (const name of namesIn(readFileSync(path, 'utf8'))) {
        const retired = retiredIn(name);
        if (!retired || seen.has(name) || ALLOWED.some((allowed) => allowed.file === file && allowed.name === name)) continue;
        seen.add(name);
        found.push(`${file}: "${name}" says ${retired.word}; say ${retired.say}`);
      }
    }
  }
  return found;
}

test('the names of electron/, renderer/ and shared/ use no retired word (docs/glossary.md)', () => {
  assert.deepEqual(findings(), []);
});

test('the word reader finds a retired word in any spelling, and only as a whole word', () => {
  assert.deepEqual(
    ['boardRows', 'BoardRow', 'fleet-view.ts', 'FleetTableRow', 'apiStyle', 'API_STYLES', 'createPanelService', 'checkInput'].map(
      (name) => retiredIn(name)?.say,
    ),
    [
      'panel list (its list and table layouts)',
      'panel list (its list and table layouts)',
      'panel list rows, or a fleet-wide view',
      'table layout',
      'generation',
      'generation',
      'core',
      'validate input',
    ],
  );
  for (const name of [
    'keyboard',
    'KeyboardEvent',
    'clipboard',
    'openDashboard',
    'PanelServices',
    'FleetWideView',
    'fleetServices',
    'checkInputs2',
  ])
    assert.equal(retiredIn(name), undefined, name);
  assert.deepEqual(namesIn(`const a = 'boardView'; // apiStyle\nfoo.checkInput(\`\${fleetView}\`, 'two words');`), [
    'const',
    'a',
    'boardView',
    'foo',
    'checkInput',
    'fleetView',
  ]);
});

test('every allowed name is still there, so the list holds only what must stay', () => {
  for (const { file, name } of ALLOWED)
    assert.ok(namesIn(readFileSync(join(root, file), 'utf8')).includes(name), `${file} no longer holds ${name}`);
});
