/**
 * The reference panel on a worker thread, for bench/services.ts: a 2.33 panel of `projects` demo
 * projects of `perProject` services each, so that serving its answers stays off the thread being
 * measured. Posts `{ url, apiToken }` once listening, and closes when told `close`.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { seedDemoServices, startReferencePanel } from '../tests/support/reference-panel/server.ts';

export interface ServicesWorkerData {
  projects: number;
  perProject: number;
}
export interface ServicesWorkerReady {
  url: string;
  /** An API token, for the bare fetches that stand beside the service's reads. */
  apiToken: string;
}

const port = parentPort;
if (!port) throw new Error('services-panel-worker.ts runs as a worker of bench/services.ts');
const { projects, perProject } = workerData as ServicesWorkerData;

const panel = await startReferencePanel({ style: 'public' });
seedDemoServices(panel.services, { projects, servicesPerProject: perProject });
port.on('message', async (message: unknown) => {
  if (message !== 'close') return;
  await panel.close();
  port.close();
});
port.postMessage({ url: panel.url, apiToken: panel.createApiToken() } satisfies ServicesWorkerReady);
