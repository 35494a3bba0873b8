import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  addHistory,
  addSavedRequest,
  EMPTY_MEMORY,
  forgetPanels,
  HISTORY_PANELS,
  HISTORY_PER_PANEL,
  type HistoryEntry,
  MAX_SAVED_ANSWER_BYTES,
  MAX_SAVED_ANSWERS,
  readConsoleMemory,
  saveAnswer,
  writeConsoleMemory,
} from '../../../../renderer/console/console-memory.ts';
import { exportRequests, importRequests } from '../../../../renderer/console/request-transfer.ts';
import { MASKED_VALUE } from '../../../../shared/secret-fields.ts';

/** What the console keeps in the window's storage: bounded, and never a secret. */

const entry = (n: number, input: unknown = {}): HistoryEntry => ({
  id: `e${n}`,
  operation: 'projects.listProjects',
  at: new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString(),
  status: 200,
  ok: true,
  ms: 12,
  bytes: 100,
  message: null,
  input,
});

test('a panel keeps its last calls, newest first, and a bounded number of panels keep any', () => {
  let memory = EMPTY_MEMORY;
  for (let n = 0; n < HISTORY_PER_PANEL + 5; n++) memory = addHistory(memory, 'p1', entry(n));
  assert.equal(memory.history.p1!.length, HISTORY_PER_PANEL);
  assert.equal(memory.history.p1![0]!.id, `e${HISTORY_PER_PANEL + 4}`);
  for (let n = 0; n < HISTORY_PANELS + 3; n++) memory = addHistory(memory, `q${n}`, entry(1000 + n));
  assert.equal(Object.keys(memory.history).length, HISTORY_PANELS);
  assert.ok(!('p1' in memory.history), 'the panel called least recently went first');
  assert.deepEqual(Object.keys(forgetPanels(memory, new Set(['q5'])).history), ['q5']);
});

test('inputs are kept with their secrets masked; answers only when saved, masked, bounded in size and number', () => {
  let memory = addHistory(EMPTY_MEMORY, 'p1', entry(1, { email: 'a@b.c', password: 'hunter22' }));
  assert.deepEqual(memory.history.p1![0]!.input, { email: 'a@b.c', password: MASKED_VALUE });
  assert.equal(memory.history.p1![0]!.answer, undefined);
  const saved = saveAnswer(memory, 'p1', 'e1', { users: [{ apiToken: 'secret-token' }] });
  assert.equal(saved.refused, null);
  assert.deepEqual(saved.memory.history.p1![0]!.answer, { users: [{ apiToken: MASKED_VALUE }] });
  const huge = saveAnswer(memory, 'p1', 'e1', 'x'.repeat(MAX_SAVED_ANSWER_BYTES + 1));
  assert.match(huge.refused ?? '', /KiB/);
  for (let n = 2; n < MAX_SAVED_ANSWERS + 5; n++) memory = addHistory(memory, 'p1', entry(n));
  for (let n = 1; n < MAX_SAVED_ANSWERS + 5; n++) memory = saveAnswer(memory, 'p1', `e${n}`, { n }).memory;
  const kept = memory.history.p1!.filter((item) => item.answer !== undefined);
  assert.equal(kept.length, MAX_SAVED_ANSWERS);
  assert.equal(kept.at(-1)!.id, 'e5', 'the oldest answers were let go');
});

test('what is read back is checked; what is not understood is left out', () => {
  const memory = addSavedRequest(addHistory(EMPTY_MEMORY, 'p1', entry(1)), {
    id: 's1',
    name: 'List',
    operation: 'projects.list',
    input: {},
  }).memory;
  assert.deepEqual(readConsoleMemory(writeConsoleMemory(memory)), memory);
  assert.deepEqual(readConsoleMemory('{"version":1,"history":{"p1":[{"id":1}]},"saved":[{"name":""}]}'), {
    history: { p1: [] },
    saved: [],
  });
  assert.deepEqual(readConsoleMemory('not json'), EMPTY_MEMORY);
  assert.deepEqual(readConsoleMemory(null), EMPTY_MEMORY);
});

test('saved requests: one per name, secrets masked; exported and imported without secrets', () => {
  let memory = addSavedRequest(EMPTY_MEMORY, {
    id: 's1',
    name: 'Make user',
    operation: 'users.createUser',
    input: { email: 'a@b.c', password: 'pw' },
  }).memory;
  memory = addSavedRequest(memory, { id: 's2', name: 'Make user', operation: 'users.createUser', input: { email: 'x@b.c' } }).memory;
  assert.equal(memory.saved.length, 1);
  memory = addSavedRequest(memory, { id: 's3', name: 'Keys', operation: 'settings.get', input: { apiKey: 'k', n: 1 } }).memory;
  const text = exportRequests(memory.saved);
  assert.ok(!text.includes('"k"') && !text.includes('"pw"'));
  const back = importRequests(text);
  assert.deepEqual(back.problems, []);
  assert.deepEqual(
    back.requests.map((request) => request.name),
    ['Keys', 'Make user'],
  );
  assert.deepEqual(back.needSecrets, ['Keys']);
  // A file written by hand with a secret in it: masked on the way in.
  const handWritten = importRequests(
    JSON.stringify({
      format: 'paneldeck-console-requests',
      version: 1,
      requests: [{ name: 'T', operation: 'a.b', input: { token: 'abc' } }, { name: '' }],
    }),
  );
  assert.deepEqual(handWritten.requests[0]!.input, { token: MASKED_VALUE });
  assert.deepEqual(handWritten.problems, ['Request 2: needs a name and an operation.']);
  assert.match(importRequests('{').problems[0]!, /^Not JSON/);
  assert.match(importRequests('{"requests":[]}').problems[0]!, /format/);
});
