import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseArguments } from '../../../shared/contract/contract.ts';
import { isPanelEvent } from '../../../shared/contract/events.ts';
import { INPUT_MAX_BYTES } from '../../../shared/operations-console.ts';

const id = '3f0b1c2a-5d6e-4f70-8a9b-0c1d2e3f4a5b';

test('the console methods check their arguments: an operation name, JSON input within its size, a field path', () => {
  assert.deepEqual(parseArguments('getOperations', [id]), [id]);
  const call = { operation: 'users.listUsers', input: { a: [1, 'b'] } };
  assert.deepEqual(parseArguments('callOperation', [id, call]), [id, call]);
  for (const bad of [
    { operation: '', input: null },
    { operation: 'a b', input: null },
    { operation: 'x'.repeat(201), input: null },
    { operation: 'ok', input: 'x'.repeat(INPUT_MAX_BYTES) },
    { operation: 'ok', input: 1n },
    { operation: 'ok', input: null, extra: 1 },
  ]) {
    assert.throws(
      () => parseArguments('callOperation', [id, bad]),
      { code: 'INVALID_INPUT' },
      JSON.stringify(bad, (_, value) => (typeof value === 'bigint' ? 'bigint' : value)).slice(0, 80),
    );
  }
  assert.deepEqual(parseArguments('callOperationOnPanels', [[id], call, { field: 'projects[0].name' }]), [
    [id],
    call,
    { field: 'projects[0].name' },
  ]);
  assert.deepEqual(parseArguments('callOperationOnPanels', [[id], call, { field: null, allowWrite: true }])[2], {
    field: null,
    allowWrite: true,
  });
  assert.throws(() => parseArguments('callOperationOnPanels', [[id], call, { field: 'a..b' }]), /path like/);
  assert.throws(() => parseArguments('callOperationOnPanels', [[], call, { field: null }]), { code: 'INVALID_INPUT' });
  assert.deepEqual(parseArguments('cancelOperationRun', []), []);
});

test('operationProgress passes only a well-formed row: short cell, known outcome, counts', () => {
  const result = { panelId: id, outcome: 'done', status: 200, ms: 12, value: 'x', message: null };
  assert.equal(isPanelEvent({ type: 'operationProgress', result, done: 1, total: 2 }), true);
  for (const broken of [
    { ...result, value: { nested: true } },
    { ...result, value: 'x'.repeat(201) },
    { ...result, outcome: 'maybe' },
    { ...result, status: 'ok' },
    { ...result, message: 'm'.repeat(2001) },
  ]) {
    assert.equal(
      isPanelEvent({ type: 'operationProgress', result: broken, done: 1, total: 2 }),
      false,
      JSON.stringify(broken).slice(0, 80),
    );
  }
  assert.equal(isPanelEvent({ type: 'operationProgress', result, done: -1, total: 2 }), false);
});
