/**
 * The reference panel on a worker thread, for bench/hostile-answers.ts: serving a 4 MiB answer
 * from the main thread would put the server's own work into the event-loop figures measured there.
 * Main sends `{ id, fault }` to set what getSession answers (or `{ id, tokens: true }` for the
 * tokens issued so far) and gets `{ id, url }`/`{ id, tokens }` back.
 */
import { parentPort } from 'node:worker_threads';
import { startReferencePanel, type Fault } from '../tests/support/reference-panel/server.ts';

export type PanelWorkerRequest = { id: number; fault: Fault | null } | { id: number; tokens: true } | { id: number; close: true };
export type PanelWorkerReply = { id: number; url: string; tokens: string[] };

const port = parentPort;
if (!port) throw new Error('hostile-panel-worker.ts runs as a worker of bench/hostile-answers.ts');

const panel = await startReferencePanel();
port.on('message', async (request: PanelWorkerRequest) => {
  if ('fault' in request) panel.setFault('getSession', request.fault);
  if ('close' in request) await panel.close();
  const reply: PanelWorkerReply = { id: request.id, url: panel.url, tokens: panel.issuedTokens() };
  port.postMessage(reply);
  if ('close' in request) port.close();
});
port.postMessage({ id: 0, url: panel.url, tokens: [] } satisfies PanelWorkerReply);
