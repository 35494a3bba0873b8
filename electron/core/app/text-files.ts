import { dirname } from 'node:path';
import type { TextFileKind } from '../../../shared/text-files.ts';
import { storageError } from '../storage/document-store.ts';
import { diskFiles, writeAtomically } from '../storage/store-files.ts';
import { readTextFile } from '../transfer/import-reader.ts';
import type { CoreOptions, CoreMethods } from '../context/core-context.ts';

/** What the window saves and opens by kind, as a refusal says it. */
const WORDS: Readonly<Record<TextFileKind, string>> = {
  csv: 'Paneldeck opens CSV text here.',
  json: "Paneldeck opens JSON text here, such as the console's saved requests.",
};

/**
 * Text the window made, to a file, and back (`saveTextFile`, `openTextFile`): the operator picks
 * the file in main's own dialogs, so the window can write or read nowhere it was not sent. Written
 * whole or not at all, readable by the operator only, like Paneldeck's own files.
 */
export function textFileMethods(
  options: Pick<CoreOptions, 'chooseExportFile' | 'chooseTextFile'>,
): CoreMethods<'saveTextFile' | 'openTextFile'> {
  return {
    async saveTextFile({ name, text }) {
      const path = await (options.chooseExportFile ?? (async () => null))(name);
      if (path === null) return { path: null, bytes: 0 };
      try {
        const { bytes } = await writeAtomically(diskFiles, path, [text], 0o600);
        return { path, bytes };
      } catch (error) {
        throw storageError(`write ${name} to ${dirname(path)}`, error);
      }
    },

    async openTextFile(chosen) {
      const path = await (options.chooseTextFile ?? (async () => null))(chosen);
      if (path === null) return null;
      return readTextFile(path, { whatIsRead: WORDS[chosen], tooBigHint: 'Split the file.', verb: 'open' });
    },
  };
}
