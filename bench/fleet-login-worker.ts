/**
 * Reference panels on a worker thread, for bench/fleet-login.ts: `count` panels of
 * tests/support/reference-panel, each its own server on 127.0.0.1, taking DEMO_USER's log in
 * after `latencyMs`. Serving them from main would put their work into main's figures.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { DEMO_USER, startReferencePanel, type ReferencePanel } from '../tests/support/reference-panel/server.ts';

export interface LoginWorkerData {
  count: number;
  latencyMs: number;
}
export type LoginWorkerRequest = { id: number; close: true };
export type LoginWorkerReply = { id: number; urls: string[] } | { id: number; closed: true };

const { count, latencyMs } = workerData as LoginWorkerData;
const panels: ReferencePanel[] = [];
for (let index = 0; index < count; index++) {
  const panel = await startReferencePanel({ users: [DEMO_USER] });
  panel.setFault('login', { kind: 'latency', ms: latencyMs });
  panels.push(panel);
}
parentPort!.postMessage({ id: 0, urls: panels.map((panel) => panel.url) } satisfies LoginWorkerReply);
parentPort!.on('message', async (request: LoginWorkerRequest) => {
  await Promise.all(panels.map((panel) => panel.close()));
  parentPort!.postMessage({ id: request.id, closed: true } satisfies LoginWorkerReply);
});
