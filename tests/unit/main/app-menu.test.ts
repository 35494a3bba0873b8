import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { MenuItemConstructorOptions } from 'electron';
import { appMenuTemplate } from '../../../electron/main/app-menu.ts';
import { COMMAND_IDS, COMMANDS, type CommandId } from '../../../shared/contract/commands.ts';

const platforms: NodeJS.Platform[] = ['darwin', 'win32', 'linux'];

/** Every item of the template, submenus included. */
function allItems(items: readonly MenuItemConstructorOptions[]): MenuItemConstructorOptions[] {
  return items.flatMap((item) => [item, ...(Array.isArray(item.submenu) ? allItems(item.submenu) : [])]);
}

function roles(items: readonly MenuItemConstructorOptions[]): string[] {
  return allItems(items).flatMap((item) => (item.role ? [item.role] : []));
}

function submenuOf(template: MenuItemConstructorOptions[], label: string): MenuItemConstructorOptions[] {
  const menu = template.find((item) => item.label === label);
  assert.ok(menu && Array.isArray(menu.submenu), `a ${label} menu`);
  return menu.submenu;
}

test('Edit has undo, cut, copy, paste and select all on every platform (the page relies on their shortcuts)', () => {
  for (const platform of platforms) {
    for (const isPackaged of [true, false]) {
      const edit = roles(submenuOf(appMenuTemplate(platform, 'Paneldeck', isPackaged), 'Edit'));
      for (const role of ['undo', 'redo', 'cut', 'copy', 'paste', 'selectAll']) assert.ok(edit.includes(role), `${platform}: ${role}`);
    }
  }
  assert.ok(roles(appMenuTemplate('darwin', 'Paneldeck', true)).includes('pasteAndMatchStyle'));
  assert.ok(!roles(appMenuTemplate('win32', 'Paneldeck', true)).includes('pasteAndMatchStyle'));
});

test('developer tools are in the menu of an unpackaged build only', () => {
  for (const platform of platforms) {
    assert.ok(!roles(appMenuTemplate(platform, 'Paneldeck', true)).includes('toggleDevTools'), platform);
    assert.ok(roles(appMenuTemplate(platform, 'Paneldeck', false)).includes('toggleDevTools'), platform);
  }
});

test('macOS gets the app menu named after the app; the others do not, and every platform can quit', () => {
  const mac = appMenuTemplate('darwin', 'Paneldeck', true);
  assert.equal(mac[0]?.label, 'Paneldeck');
  assert.deepEqual(roles([mac[0]!]), ['about', 'services', 'hide', 'hideOthers', 'unhide', 'quit']);
  for (const platform of ['win32', 'linux'] as const) {
    const template = appMenuTemplate(platform, 'Paneldeck', true);
    assert.equal(template[0]?.label, 'File');
    assert.ok(!roles(template).some((role) => ['about', 'services', 'hide', 'hideOthers', 'unhide'].includes(role)), platform);
  }
  for (const platform of platforms) assert.ok(roles(appMenuTemplate(platform, 'Paneldeck', true)).includes('quit'), platform);
});

test("every item is a role or one of the window's commands, with the command's shortcut, handed to the window when chosen", () => {
  for (const platform of platforms) {
    const run: CommandId[] = [];
    const items = allItems(appMenuTemplate(platform, 'Paneldeck', false, (command) => run.push(command)));
    const commands = items.filter((item) => item.click !== undefined);
    for (const item of items) {
      assert.ok(
        item.role !== undefined || item.type === 'separator' || Array.isArray(item.submenu) || item.click !== undefined,
        JSON.stringify(item),
      );
    }
    for (const item of commands) {
      const id = COMMAND_IDS.find((candidate) => COMMANDS[candidate].title === item.label);
      assert.ok(id, `${platform}: ${String(item.label)} is a command`);
      if (item.visible !== false) assert.equal(item.accelerator ?? null, COMMANDS[id].accelerator, `${platform}: ${id}'s shortcut`);
      (item.click as () => void)();
      assert.equal(run.at(-1), id);
    }
    const shown = new Set(commands.filter((item) => item.visible !== false).map((item) => item.label));
    for (const id of ['addPanel', 'refresh', 'checkAll', 'preferences', 'palette', 'find'] as const)
      assert.ok(shown.has(COMMANDS[id].title), `${platform}: ${id} in the menu`);
    assert.ok(
      commands.some((item) => item.accelerator === 'F5' && item.label === COMMANDS.refresh.title),
      `${platform}: F5 refreshes`,
    );
  }
});

test('no reload role takes Ctrl+R or F5 from the window; an unpackaged build reloads on Ctrl+Alt+Shift+R', () => {
  for (const platform of platforms) {
    assert.ok(!roles(appMenuTemplate(platform, 'Paneldeck', true)).some((role) => /reload/i.test(role)), platform);
    const dev = allItems(appMenuTemplate(platform, 'Paneldeck', false)).filter(
      (item) => item.role !== undefined && /reload/i.test(item.role),
    );
    assert.deepEqual(
      dev.map((item) => item.accelerator),
      ['CmdOrCtrl+Alt+Shift+R'],
      platform,
    );
  }
});

test('View and Window hold zoom, full screen and minimize', () => {
  for (const platform of platforms) {
    const template = appMenuTemplate(platform, 'Paneldeck', true);
    const view = roles(submenuOf(template, 'View'));
    for (const role of ['resetZoom', 'zoomIn', 'zoomOut', 'togglefullscreen']) assert.ok(view.includes(role), `${platform}: ${role}`);
    assert.ok(roles(submenuOf(template, 'Window')).includes('minimize'), platform);
  }
});

test("every view of the fleet is in View with its shortcut; no two commands share keys, and none takes a role's or the lists' keys", () => {
  for (const platform of platforms) {
    const view = allItems(submenuOf(appMenuTemplate(platform, 'Paneldeck', true), 'View'));
    for (const id of ['activity', 'alerts', 'allServices', 'certificates', 'fleetConsole', 'backups'] as const) {
      const item = view.find((candidate) => candidate.label === COMMANDS[id].title);
      assert.ok(item, `${platform}: ${id} in View`);
      assert.ok(COMMANDS[id].accelerator, `${id} has a shortcut`);
      assert.equal(item.accelerator, COMMANDS[id].accelerator, `${platform}: ${id}'s shortcut`);
    }
  }
  const accelerators: string[] = COMMAND_IDS.flatMap((id) => COMMANDS[id].accelerator ?? []);
  assert.equal(new Set(accelerators).size, accelerators.length, 'each shortcut runs one command');
  // Electron's roles' own keys (undo, redo, cut, copy, paste, select all, zoom, minimize, close,
  // quit, hide, developer tools), and Ctrl+Shift+A, which the lists read as select all.
  const taken = ['Z', 'Shift+Z', 'Y', 'X', 'C', 'V', 'A', 'Shift+A', '0', 'Plus', '-', '=', 'M', 'W', 'Q', 'H', 'Shift+I', 'Alt+I'];
  for (const keys of taken) assert.ok(!accelerators.includes(`CmdOrCtrl+${keys}`), `CmdOrCtrl+${keys} is left to its role`);
});
