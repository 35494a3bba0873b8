import { readImportFile } from '../../electron/core/transfer/import-reader.ts';

/**
 * Reads the file named on the command line as an import would, and prints the outcome as JSON:
 * run in a child process, so that a read that blocks for good fails a test instead of hanging it.
 */
try {
  const { name, text } = await readImportFile(process.argv[2]!);
  console.log(JSON.stringify({ ok: true, name, length: text.length }));
} catch (error) {
  console.log(JSON.stringify({ ok: false, code: (error as { code?: string }).code, message: (error as Error).message }));
}
