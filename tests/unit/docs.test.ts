import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { test } from 'node:test';
import { errorCodes } from '../../shared/contract/errors.ts';
import { methodNames } from '../../shared/contract/methods.ts';

/**
 * The docs say what the code has: docs/architecture.md lists every method of the contract with
 * the file of the core that serves it, docs/errors.md every error code, and no doc names a file
 * or folder the repository lacks. Read as text: a list item or a table row that starts with a
 * name in backticks is an entry of its section.
 */
const root = join(import.meta.dirname, '..', '..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');

/** The text of the section under `## heading`, up to the next heading of that level or above. */
function section(markdown: string, heading: string): string {
  const lines = markdown.split('\n');
  const start = lines.indexOf(`## ${heading}`);
  if (start === -1) throw new Error(`no section "## ${heading}"`);
  const end = lines.findIndex((line, index) => index > start && /^#{1,2} /.test(line));
  return lines.slice(start + 1, end === -1 ? undefined : end).join('\n');
}

/** Each entry of a section: the name in backticks that starts a list item or a table row, with the rest of its line. */
function entries(text: string): { name: string; line: string }[] {
  return [...text.matchAll(/^(?:- |\| )`([^`]+)`(.*)$/gm)].map((match) => ({ name: match[1]!, line: match[2]! }));
}

/** What differs between the names a doc lists and the names the code has, said both ways; empty when they agree. */
function differences(documented: readonly string[], actual: readonly string[], doc: string): string[] {
  const listed = new Set(documented);
  const real = new Set(actual);
  return [
    ...actual.filter((name) => !listed.has(name)).map((name) => `${name} is missing from ${doc}`),
    ...documented.filter((name) => !real.has(name)).map((name) => `${doc} lists ${name}, which does not exist`),
    ...documented.filter((name, index) => documented.indexOf(name) !== index).map((name) => `${doc} lists ${name} twice`),
  ];
}

const METHODS_SECTION = "The contract's methods";

test('docs/architecture.md lists every method of the contract, and no other', () => {
  const documented = entries(section(read('docs/architecture.md'), METHODS_SECTION)).map((entry) => entry.name);
  assert.deepEqual(differences(documented, methodNames, 'docs/architecture.md'), []);
});

test('each method in docs/architecture.md names the file of electron/core/ that serves it', () => {
  const wrong: string[] = [];
  for (const { name, line } of entries(section(read('docs/architecture.md'), METHODS_SECTION))) {
    const file = /`(electron\/core\/[\w/-]+\.ts)`/.exec(line)?.[1];
    if (!file) wrong.push(`${name}: no electron/core/ file named`);
    else if (!existsSync(join(root, file))) wrong.push(`${name}: ${file} does not exist`);
    else if (!new RegExp(`^\\s+(?:async )?${name}\\(`, 'm').test(read(file))) wrong.push(`${name}: ${file} does not define it`);
  }
  assert.deepEqual(wrong, []);
});

test('docs/errors.md lists every error code, in the order of errorCodes, and no other', () => {
  const documented = entries(section(read('docs/errors.md'), 'The codes')).map((entry) => entry.name);
  assert.deepEqual(differences(documented, errorCodes, 'docs/errors.md'), []);
  assert.deepEqual(documented, [...errorCodes], 'in the order of errorCodes');
});

/** The repository's files, as paths from its root with `/`. */
function repositoryFiles(): string[] {
  const skipped = new Set(['node_modules', 'dist', 'release', 'test-results', '.git']);
  const files: string[] = [];
  const walk = (folder: string) => {
    for (const entry of readdirSync(join(root, folder), { withFileTypes: true })) {
      if (skipped.has(entry.name)) continue;
      const path = folder === '' ? entry.name : `${folder}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else files.push(path);
    }
  };
  walk('');
  return files.map((file) => file.split(sep).join('/'));
}

/**
 * Named in the docs, made elsewhere: the build's output (`npm run build`), the tests' output, the
 * script the README asks a reader to save, and the file a release publishes.
 */
const MADE_ELSEWHERE = [/^dist\//, /^test-results\//, /^quickstart\.ts$/, /^latest-linux\.yml$/];

test('every file and folder the docs and the README name in backticks exists', () => {
  const files = repositoryFiles();
  // A name may be a path from the root, or the end of one (`create-core.ts`, `wiring/create-core.ts`).
  const isFile = (name: string) => files.some((file) => file === name || file.endsWith(`/${name}`));
  const isFolder = (name: string) => files.some((file) => file.startsWith(name) || file.includes(`/${name}`));
  const docs = ['README.md', ...readdirSync(join(root, 'docs')).flatMap((name) => (name.endsWith('.md') ? [`docs/${name}`] : []))];
  const missing: string[] = [];
  for (const doc of docs) {
    const text = read(doc);
    const fileNames = [...text.matchAll(/`((?:\.\.\/)*[\w-][\w./-]*\.(?:tsx?|css|html|cjs|mjs|json|ya?ml|md|png))`/g)].map(
      (match) => match[1]!,
    );
    // (A path from the panel's address, `/api/openapi.json`, is not a file of ours.)
    // Folders with a slash inside (`electron/core/writes/`): a lone `common/` may be a layer's short name or a route.
    const folderNames = [...text.matchAll(/`([\w.-]+(?:\/[\w.-]+)+\/)`/g)].map((match) => match[1]!);
    for (const name of fileNames) {
      const path = name.replace(/^(\.\.\/)+/, '');
      if (!name.includes('/') && !/\.(?:tsx?|css|html|cjs|mjs)$/.test(name)) continue; // a data file (`panels.json`) in the data folder
      if (!MADE_ELSEWHERE.some((made) => made.test(path)) && !isFile(path)) missing.push(`${doc}: ${name}`);
    }
    for (const name of folderNames) if (!MADE_ELSEWHERE.some((made) => made.test(name)) && !isFolder(name)) missing.push(`${doc}: ${name}`);
  }
  assert.deepEqual(missing, []);
});

test('the helpers above see a missing entry, an extra one and a twice-listed one', () => {
  const doc = '# Doc\n\n## Things\n\n- `alpha`: one\n- `gamma`: three\n- `gamma`: again\n\n## Other\n\n- `beta`: not here';
  const listed = entries(section(doc, 'Things')).map((entry) => entry.name);
  assert.deepEqual(listed, ['alpha', 'gamma', 'gamma']);
  assert.deepEqual(differences(listed, ['alpha', 'beta'], 'doc'), [
    'beta is missing from doc',
    'doc lists gamma, which does not exist',
    'doc lists gamma, which does not exist',
    'doc lists gamma twice',
  ]);
});
