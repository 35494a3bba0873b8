import assert from 'node:assert/strict';
import { test } from 'node:test';
import { COMMAND_IDS, COMMANDS, isCommandId, shortcutLabel } from '../../../../shared/contract/commands.ts';
import { isPanelEvent } from '../../../../shared/contract/events.ts';
import { commandForKey, type KeyPress } from '../../../../renderer/window/shortcuts.ts';

/** The window's shortcuts: the page's keys agree with the menu's accelerators, on every platform. */

const press = (key: string, keys: Partial<KeyPress> = {}): KeyPress => ({
  key,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  altKey: false,
  ...keys,
});

/** The key press an accelerator like "CmdOrCtrl+Shift+R" stands for. */
function pressOf(accelerator: string, mac: boolean): KeyPress {
  const parts = accelerator.split('+');
  const key = parts.at(-1)!;
  return press(parts.includes('Shift') ? key.toUpperCase() : key.toLowerCase(), {
    ctrlKey: !mac && parts.includes('CmdOrCtrl'),
    metaKey: mac && parts.includes('CmdOrCtrl'),
    shiftKey: parts.includes('Shift'),
  });
}

test('every command with a shortcut in the menu is the command of the same keys in the page', () => {
  for (const mac of [false, true]) {
    for (const id of COMMAND_IDS) {
      const accelerator = COMMANDS[id].accelerator;
      if (accelerator) assert.equal(commandForKey(pressOf(accelerator, mac), mac), id, `${id} on ${mac ? 'macOS' : 'Windows/Linux'}`);
    }
  }
});

test("F5 refreshes; Ctrl+R refreshes (no reload); other keys and the other platform's modifier do nothing", () => {
  assert.equal(commandForKey(press('F5'), false), 'refresh');
  assert.equal(commandForKey(press('r', { ctrlKey: true }), false), 'refresh');
  assert.equal(commandForKey(press('R', { ctrlKey: true, shiftKey: true }), false), 'checkAll');
  assert.equal(commandForKey(press('k', { metaKey: true }), false), null, 'Cmd is not Ctrl off macOS');
  assert.equal(commandForKey(press('k', { ctrlKey: true }), true), null, 'Ctrl is not Cmd on macOS');
  assert.equal(commandForKey(press('k'), false), null);
  assert.equal(commandForKey(press('x', { ctrlKey: true }), false), null);
  assert.equal(commandForKey(press('k', { ctrlKey: true, altKey: true }), false), null);
});

test('shortcut labels as each platform writes them', () => {
  assert.equal(shortcutLabel('CmdOrCtrl+Shift+R', false), 'Ctrl+Shift+R');
  assert.equal(shortcutLabel('CmdOrCtrl+Shift+R', true), '⌘⇧R');
  assert.equal(shortcutLabel('CmdOrCtrl+,', true), '⌘,');
});

test('a runCommand event names a known command, or it is not an event', () => {
  assert.ok(isPanelEvent({ type: 'runCommand', command: 'checkAll' }));
  assert.ok(!isPanelEvent({ type: 'runCommand', command: 'formatDisk' }));
  assert.ok(!isPanelEvent({ type: 'runCommand', command: 'toString' }), 'no inherited names');
  assert.ok(!isCommandId('__proto__'));
});
