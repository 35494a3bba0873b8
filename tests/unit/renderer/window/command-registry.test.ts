import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CommandRegistry } from '../../../../renderer/window/command-registry.ts';

/** The window's commands reach whatever part of the window is shown and carries them out. */

test('a command runs its handler, once per run; with none registered nothing runs', () => {
  const registry = new CommandRegistry();
  const ran: string[] = [];
  assert.equal(registry.run('refresh'), false);
  registry.register('refresh', () => ran.push('refresh'));
  assert.equal(registry.run('refresh'), true);
  assert.equal(registry.run('refresh'), true);
  assert.equal(registry.run('find'), false);
  assert.deepEqual(ran, ['refresh', 'refresh']);
});

test('the newest registration answers; when it goes, the one behind it answers again', () => {
  const registry = new CommandRegistry();
  const ran: string[] = [];
  const unregisterOld = registry.register('logOut', () => ran.push('old view'));
  const unregisterNew = registry.register('logOut', () => ran.push('new view'));
  registry.run('logOut');
  unregisterNew();
  registry.run('logOut');
  unregisterOld();
  assert.equal(registry.run('logOut'), false);
  assert.deepEqual(ran, ['new view', 'old view']);
});

test('unregistering is exact: twice is harmless, and the same function registered twice is undone one at a time', () => {
  const registry = new CommandRegistry();
  let runs = 0;
  const handler = () => runs++;
  const first = registry.register('find', handler);
  const second = registry.register('find', handler);
  first();
  first();
  assert.equal(registry.has('find'), true);
  registry.run('find');
  second();
  assert.equal(registry.has('find'), false);
  assert.equal(runs, 1);
});

test('a part of the window registers its commands together and leaves with all of them (React StrictMode mounts twice)', () => {
  const registry = new CommandRegistry();
  const ran: string[] = [];
  const handlers = { checkSelected: () => ran.push('check'), removeSelected: () => ran.push('remove') };
  registry.registerAll(handlers)();
  const leave = registry.registerAll(handlers);
  registry.run('checkSelected');
  registry.run('removeSelected');
  leave();
  assert.equal(registry.run('checkSelected'), false);
  assert.equal(registry.run('removeSelected'), false);
  assert.deepEqual(ran, ['check', 'remove']);
});
