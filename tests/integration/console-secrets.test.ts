import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, test } from 'node:test';
import { readAllFiles, tempDir, writesOnly } from '../support/helpers.ts';
import { DEMO_USER, type ReferencePanel, startReferencePanel } from '../support/reference-panel/server.ts';
import { echoForms, secretFormsIn } from '../support/secret-forms.ts';
import { openSignedIn } from '../support/signed-in-core.ts';

/**
 * The console and the panel's token: a panel that echoes it, in every encoding the leak tests know,
 * in a read's answer, a refused write's answer (which the activity log records), an error answer
 * and its catalogue. None of those forms may reach an answer, an error, an event, or a file of
 * the data folder (the activity log).
 */

let issued = 0;
// Laravel Sanctum's shape: the "|" is what URL-encoding changes.
const sanctumToken = () => `${++issued}|${randomBytes(30).toString('base64url')}`;

let dir: Awaited<ReturnType<typeof tempDir>>;
let panel: ReferencePanel;
beforeEach(async () => {
  dir = await tempDir();
});
afterEach(async () => {
  await panel.close();
  await dir.cleanup();
});

test('a token echoed in any encoding is in no answer, error, event or file', async () => {
  panel = await startReferencePanel({ style: 'public', issueToken: sanctumToken });
  const { core, events, id, token } = await openSignedIn(dir.path, panel);
  const forms = echoForms(token, DEMO_USER.email);
  const seen: unknown[] = [];
  const settle = async (work: Promise<unknown>) => {
    try {
      seen.push(await work);
    } catch (error) {
      seen.push({ message: (error as Error).message, stack: (error as Error).stack });
    }
  };
  seen.push(await core.getOperations(id));
  // A read answering every form, as values and as keys.
  panel.services.setRawAnswer('listProjectsAndServices', {
    forms: forms.map((form) => ({ [form.name]: form.text, [form.text]: form.name })),
  });
  await settle(core.callOperation(id, { operation: 'listProjectsAndServices', input: {} }));
  await settle(core.callOperationOnPanels([id], { operation: 'listProjectsAndServices', input: {} }, { field: 'forms' }));
  // A write the panel refuses with the token in its words: the answer, and the log's message.
  for (const form of forms) {
    panel.setFault('createProject', {
      kind: 'status',
      status: 500,
      body: { code: 'INTERNAL_SERVER_ERROR', message: `failed for ${form.text}` },
    });
    await settle(core.callOperation(id, { operation: 'createProject', input: { name: 'leaky' } }));
  }
  // Text answers (not JSON) with the token.
  for (const form of forms) {
    panel.setFault('listUsers', { kind: 'status', status: 200, body: `token ${form.text}`, contentType: 'text/plain' });
    await settle(core.callOperation(id, { operation: 'listUsers', input: null }));
  }
  const entries = writesOnly((await core.listActivity({ panelId: id })).entries);
  assert.equal(entries.length, forms.length);
  assert.ok(entries.every((entry) => entry.outcome === 'failed'));
  const files = await readAllFiles(dir.path);
  const places: Record<string, string> = {
    answers: JSON.stringify(seen),
    events: JSON.stringify(events),
    activity: JSON.stringify(entries),
    ...Object.fromEntries(files.map((file) => [file.path, file.content])),
  };
  const leaks = Object.entries(places).flatMap(([place, text]) => secretFormsIn(text, token).map((form) => `${place}: ${form}`));
  assert.deepEqual(leaks, []);
});

test('a catalogue echoing the token in names and summaries shows it nowhere', async () => {
  panel = await startReferencePanel({ style: 'rpc', issueToken: sanctumToken, catalogue: { hostile: 'escaping-paths' } });
  const { core, id, token } = await openSignedIn(dir.path, panel);
  const catalogue = await core.getOperations(id);
  assert.deepEqual(secretFormsIn(JSON.stringify(catalogue), token), []);
});
