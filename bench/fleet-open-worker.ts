/**
 * One run of figure 3 of bench/fleet.ts on a fresh worker thread: the first listPanels of a new
 * core on a folder of many signed-in panels, against reading and parsing the same files.
 *
 * A fresh thread per run, because an app starts in a fresh process: in bench/fleet.ts's own thread
 * the second core would find the core's code compiled and its module-level caches (the display
 * address of each base URL, data-folder.ts) filled by the first, and time a start no operator
 * sees. The same thread then opens a second core on the folder: the "warm" figure.
 *
 * The folder is written here, with this thread's test encryption, since its key cannot leave it.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { createCore } from '../electron/core/index.ts';
import { testEncryption } from '../tests/support/helpers.ts';
import { newToken, writeFleetFolder } from './fleet-data.ts';

export interface OpenWorkerData {
  dir: string;
  count: number;
}

export interface OpenWorkerReply {
  /** readFile + JSON.parse of every file of the folder, in ms. */
  baselineMs: number;
  /** From createCore to the first listPanels' answer, in ms. */
  coldMs: number;
  /** The same again with a second core in the same thread. */
  warmMs: number;
  panels: number;
  signedIn: number;
  bytes: number;
  error: string | null;
}

const port = parentPort;
if (!port) throw new Error('fleet-open-worker.ts runs as a worker of bench/fleet.ts');
const { dir, count } = workerData as OpenWorkerData;

const reply: OpenWorkerReply = { baselineMs: NaN, coldMs: NaN, warmMs: NaN, panels: 0, signedIn: 0, bytes: 0, error: null };
try {
  const encryption = testEncryption();
  // Distinct ports make distinct addresses; nothing listens there, and nothing is sent.
  const entries = Array.from({ length: count }, (_, index) => ({ address: `http://127.0.0.1:${10_000 + index}`, token: newToken() }));
  const { sizes } = await writeFleetFolder(dir, entries, encryption, { settings: true, checks: true });
  reply.bytes = Object.values(sizes).reduce((sum, size) => sum + size, 0);

  let started = performance.now();
  for (const name of Object.keys(sizes)) JSON.parse(await readFile(join(dir, name), 'utf8'));
  reply.baselineMs = performance.now() - started;

  started = performance.now();
  const panels = await createCore({ dataDir: dir, encryption }).listPanels();
  reply.coldMs = performance.now() - started;
  reply.panels = panels.length;
  reply.signedIn = panels.filter((panel) => panel.signedIn).length;

  started = performance.now();
  await createCore({ dataDir: dir, encryption }).listPanels();
  reply.warmMs = performance.now() - started;
} catch (error) {
  reply.error = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
port.postMessage(reply);
