import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import type { BaseWindow, OpenDialogOptions, SaveDialogOptions } from 'electron';
import { type DialogApi, fileDialogs, showStartFailure } from '../../../electron/main/dialogs.ts';

/** Main's dialogs over a fake of Electron's `dialog` that records what it was asked and answers as told. */
function fakeDialog(answer: { canceled: boolean; path: string | null }) {
  const asked: { kind: 'save' | 'open' | 'error'; parent: unknown; options: unknown }[] = [];
  const split = (args: unknown[]) => (args.length === 2 ? { parent: args[0], options: args[1] } : { parent: null, options: args[0] });
  const dialog = {
    showSaveDialog: async (...args: unknown[]) => {
      asked.push({ kind: 'save', ...split(args) });
      return { canceled: answer.canceled, filePath: answer.path ?? '' };
    },
    showOpenDialog: async (...args: unknown[]) => {
      asked.push({ kind: 'open', ...split(args) });
      return { canceled: answer.canceled, filePaths: answer.path === null ? [] : [answer.path] };
    },
    showErrorBox: (title: string, content: string) => asked.push({ kind: 'error', parent: null, options: { title, content } }),
  } as unknown as DialogApi;
  return { dialog, asked };
}

const documents = join('/home', 'operator', 'Documents');
const window = { id: 1 } as unknown as BaseWindow;

test('export: the save dialog over the window, in Documents, filtered by the suggested name; the path chosen', async () => {
  const { dialog, asked } = fakeDialog({ canceled: false, path: '/tmp/panels.json' });
  const choices = fileDialogs(dialog, { documents: () => documents, window: () => window });
  assert.equal(await choices.chooseExportFile('paneldeck-panels-2030-01-01.json'), '/tmp/panels.json');
  assert.equal(await choices.chooseExportFile('services.csv'), '/tmp/panels.json');
  assert.deepEqual(
    asked.map(({ kind, parent, options }) => ({ kind, parent, options: options as SaveDialogOptions })),
    [
      {
        kind: 'save',
        parent: window,
        options: {
          defaultPath: join(documents, 'paneldeck-panels-2030-01-01.json'),
          filters: [{ name: 'JSON', extensions: ['json'] }],
          // A file there is never replaced without asking (Linux's dialog asks only when told to).
          properties: ['showOverwriteConfirmation', 'createDirectory'],
        },
      },
      {
        kind: 'save',
        parent: window,
        options: {
          defaultPath: join(documents, 'services.csv'),
          filters: [{ name: 'CSV', extensions: ['csv'] }],
          properties: ['showOverwriteConfirmation', 'createDirectory'],
        },
      },
    ],
  );
});

test('import and text files: the open dialog, without a window when there is none; cancelled is null', async () => {
  const { dialog, asked } = fakeDialog({ canceled: true, path: null });
  const choices = fileDialogs(dialog, { documents: () => documents, window: () => null });
  assert.equal(await choices.chooseImportFile(), null);
  assert.equal(await choices.chooseTextFile('csv'), null);
  assert.deepEqual(
    asked.map(({ kind, parent, options }) => ({ kind, parent, filters: (options as OpenDialogOptions).filters })),
    [
      {
        kind: 'open',
        parent: null,
        filters: [
          { name: 'Panels (JSON export, CSV, text)', extensions: ['json', 'csv', 'txt'] },
          { name: 'All files', extensions: ['*'] },
        ],
      },
      {
        kind: 'open',
        parent: null,
        filters: [
          { name: 'CSV', extensions: ['csv'] },
          { name: 'All files', extensions: ['*'] },
        ],
      },
    ],
  );
  const chosen = fakeDialog({ canceled: false, path: '/tmp/requests.json' });
  assert.equal(
    await fileDialogs(chosen.dialog, { documents: () => documents, window: () => null }).chooseTextFile('json'),
    '/tmp/requests.json',
  );
});

test('a fleet file: the open dialog for one to follow, the save dialog for a new one named as fleet files are', async () => {
  const { dialog, asked } = fakeDialog({ canceled: false, path: '/repo/acme.paneldeck-fleet.json' });
  const choices = fileDialogs(dialog, { documents: () => documents, window: () => null });
  assert.equal(await choices.chooseFleetFile(), '/repo/acme.paneldeck-fleet.json');
  await choices.chooseNewFleetFile();
  assert.deepEqual(
    asked.map(({ kind }) => kind),
    ['open', 'save'],
  );
  assert.match((asked[1]!.options as SaveDialogOptions).defaultPath ?? '', /team\.paneldeck-fleet\.json$/);
});

test('a failed start: one error box saying why', () => {
  const { dialog, asked } = fakeDialog({ canceled: true, path: null });
  showStartFailure(dialog, 'The data folder cannot be written.');
  assert.deepEqual(asked, [
    { kind: 'error', parent: null, options: { title: 'Paneldeck could not start', content: 'The data folder cannot be written.' } },
  ]);
});
