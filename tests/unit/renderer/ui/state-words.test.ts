import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { PANEL_STATES } from '../../../../renderer/ui/panel-state.ts';

/**
 * One name per panel state (docs/glossary.md, issue 31): the window's state words come from one
 * table, `PANEL_STATES`. tests/unit/words.test.ts reads names, not UI text, so this reads the
 * window's string literals: a state's word written anywhere else, or a retired spelling, fails.
 */
const root = resolve(import.meta.dirname, '..', '..', '..', '..');
const TABLE = 'renderer/ui/panel-state.ts';
/** Spellings of a panel's state the window said before; the table's words replaced them. */
const RETIRED = ['Failing', 'Failed check', 'Not answering', 'Signed in, last check failed', 'Signed in, certificate changed'];

function* sources(folder: string): Generator<string> {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) yield* sources(path);
    else if (/\.tsx?$/.test(entry.name)) yield path;
  }
}

/** The text of every quoted string of a file (JSX text aside: state words are never written there). */
function literals(source: string): string[] {
  return [...source.matchAll(/'((?:\\.|[^'\\\n])*)'|"((?:\\.|[^"\\\n])*)"/g)].map((match) => match[1] ?? match[2] ?? '');
}

test("the window's state words are written once, in PANEL_STATES; no retired spelling is left", () => {
  const own = new Set(['Degraded', 'State unknown', PANEL_STATES.unknown.word, PANEL_STATES.degraded.word]);
  const found: string[] = [];
  for (const path of sources(join(root, 'renderer'))) {
    const file = relative(root, path).split('\\').join('/');
    for (const text of literals(readFileSync(path, 'utf8'))) {
      if (RETIRED.includes(text)) found.push(`${file}: "${text}" is retired; say PANEL_STATES' word`);
      if (file !== TABLE && own.has(text)) found.push(`${file}: "${text}" is a state's word; take it from PANEL_STATES`);
    }
  }
  assert.deepEqual(found, []);
});

test('the reader finds a literal state word, in either quotes', () => {
  assert.deepEqual(literals(`const a = 'Failing'; const b = "State unknown";`), ['Failing', 'State unknown']);
});
