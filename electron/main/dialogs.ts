import { join } from 'node:path';
import type { BaseWindow, Dialog, FileFilter, OpenDialogOptions, SaveDialogOptions } from 'electron';
import type { CoreOptions } from '../core/index.ts';
import type { TextFileKind } from '../../shared/text-files.ts';
import { FLEET_FILE_SUFFIX } from '../../shared/fleet-file.ts';

/** The part of Electron's `dialog` main uses. */
export type DialogApi = Pick<Dialog, 'showSaveDialog' | 'showOpenDialog' | 'showErrorBox'>;

export interface DialogPlaces {
  /** The operator's documents folder, where each dialog opens (`app.getPath('documents')`). */
  documents(): string;
  /** The window a dialog is modal over, or null when there is none (macOS, every window closed). */
  window(): BaseWindow | null;
}

/** The files the core asks the operator for, each in the system's own dialog: the window never touches the file system. */
export type FileChoices = Required<
  Pick<CoreOptions, 'chooseExportFile' | 'chooseImportFile' | 'chooseTextFile' | 'chooseFleetFile' | 'chooseNewFleetFile'>
>;

const ALL_FILES: FileFilter = { name: 'All files', extensions: ['*'] };
/** The filter sees the last extension only: every `.json`, a fleet file among them. */
const FLEET_FILTER: FileFilter = { name: 'Paneldeck fleet file', extensions: ['json'] };
const FILTER_OF: Readonly<Record<TextFileKind, FileFilter>> = {
  csv: { name: 'CSV', extensions: ['csv'] },
  json: { name: 'JSON', extensions: ['json'] },
};

/** Main's save and open dialogs (Electron Fiddle's `src/main/dialogs.ts`: every dialog in one module), over the main window. */
export function fileDialogs(dialog: DialogApi, { documents, window }: DialogPlaces): FileChoices {
  const save = async (given: SaveDialogOptions): Promise<string | null> => {
    // Linux's dialog replaces a file without asking unless told to ask; the others always ask.
    const options: SaveDialogOptions = { ...given, properties: ['showOverwriteConfirmation', 'createDirectory'] };
    const parent = window();
    const chosen = parent ? await dialog.showSaveDialog(parent, options) : await dialog.showSaveDialog(options);
    return chosen.canceled || !chosen.filePath ? null : chosen.filePath;
  };
  const open = async (options: OpenDialogOptions): Promise<string | null> => {
    const parent = window();
    const chosen = parent ? await dialog.showOpenDialog(parent, options) : await dialog.showOpenDialog(options);
    return chosen.canceled ? null : (chosen.filePaths[0] ?? null);
  };
  return {
    chooseExportFile: (suggestedName) =>
      save({
        defaultPath: join(documents(), suggestedName),
        filters: [suggestedName.endsWith('.csv') ? FILTER_OF.csv : FILTER_OF.json],
      }),
    chooseImportFile: () =>
      open({
        defaultPath: documents(),
        properties: ['openFile'],
        filters: [{ name: 'Panels (JSON export, CSV, text)', extensions: ['json', 'csv', 'txt'] }, ALL_FILES],
      }),
    chooseTextFile: (kind) => open({ defaultPath: documents(), properties: ['openFile'], filters: [FILTER_OF[kind], ALL_FILES] }),
    // Wherever the team keeps it: a git working tree, a synced folder.
    chooseFleetFile: () => open({ defaultPath: documents(), properties: ['openFile'], filters: [FLEET_FILTER, ALL_FILES] }),
    chooseNewFleetFile: () => save({ defaultPath: join(documents(), `team${FLEET_FILE_SUFFIX}`), filters: [FLEET_FILTER] }),
  };
}

/** The start failed: one box saying why, before the app exits (the log has the details). */
export function showStartFailure(dialog: Pick<DialogApi, 'showErrorBox'>, message: string): void {
  dialog.showErrorBox('Paneldeck could not start', message);
}
