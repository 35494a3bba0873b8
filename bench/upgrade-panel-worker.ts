/**
 * A fleet of reference panels that restart when updated, on a worker thread, for bench/upgrades.ts:
 * `panels` of them, the three Easypanel generations in turn, each with an update that answers,
 * then takes the panel away (502 from its proxy) for `awayMs` before it answers again on the new
 * version and its generation (tests/support/reference-panel/panel-update.ts). Serving 200 panels'
 * polls from main would put the servers' own work into the event-loop figure measured there.
 *
 * It counts, across all panels, the updates received and the panels away at once (from the
 * restart its update began to its answering again), and the most since the last `reset`. A
 * `reset` also puts every panel back on its version from before, with its update available again,
 * so that each run upgrades the same fleet.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { DEFAULT_VERSIONS, type ReferencePanel, startReferencePanel } from '../tests/support/reference-panel/server.ts';
import { EASYPANEL_GENERATIONS } from '../tests/support/signed-in-core.ts';
import { type EasypanelStyle, NEXT, updateRequests } from '../tests/support/upgrade-fleet.ts';

export interface UpgradeWorkerData {
  panels: number;
  awayMs: number;
}

export type UpgradeWorkerRequest = { id: number; stats: true } | { id: number; reset: true } | { id: number; close: true };

export interface UpgradeWorkerReply {
  id: number;
  urls: string[];
  /** Updates each panel received since the last reset, by panel. */
  updates: number[];
  /** Restarts since the last reset, across all panels. */
  restarts: number;
  /** Panels away at once now, and the most since the last reset. */
  away: number;
  maxAway: number;
}

const port = parentPort;
if (!port) throw new Error('upgrade-panel-worker.ts runs as a worker of bench/upgrades.ts');
const { panels: count, awayMs } = workerData as UpgradeWorkerData;

const styleOf = (index: number): EasypanelStyle => EASYPANEL_GENERATIONS[index % EASYPANEL_GENERATIONS.length]!;
const updateOf = (index: number) => ({ to: NEXT[styleOf(index)], awayMs });

let away = 0;
let maxAway = 0;
let restarts = 0;
/** Counts the panel's every going away and coming back, for as long as the worker runs. */
async function watch(panel: ReferencePanel): Promise<void> {
  for (;;) {
    await panel.nextRestart('away');
    restarts++;
    away++;
    maxAway = Math.max(maxAway, away);
    await panel.nextRestart('back');
    away--;
  }
}

const panels: ReferencePanel[] = [];
for (let index = 0; index < count; index++) {
  const panel = await startReferencePanel({ style: styleOf(index), updateAvailable: true, update: updateOf(index) });
  panels.push(panel);
  void watch(panel);
}

const reply = (id: number): UpgradeWorkerReply => ({
  id,
  urls: panels.map((panel) => panel.url),
  updates: panels.map(updateRequests),
  restarts,
  away,
  maxAway,
});

port.on('message', async (request: UpgradeWorkerRequest) => {
  if ('reset' in request) {
    for (const [index, panel] of panels.entries()) {
      // Back on the version (and generation) it had before the update, with the update out again.
      panel.setVersion(DEFAULT_VERSIONS[styleOf(index)]!, { upgrade: true });
      panel.setUpdateAvailable(true);
      panel.setUpdate(updateOf(index));
      panel.requests.splice(0);
    }
    restarts = 0;
    maxAway = away;
  }
  if ('close' in request) await Promise.all(panels.map((panel) => panel.close()));
  port.postMessage(reply(request.id));
  if ('close' in request) port.close();
});
port.postMessage(reply(0));
