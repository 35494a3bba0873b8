import assert from 'node:assert/strict';
import { test } from 'node:test';
import { COMMANDS, isCommandId } from '../../../../shared/contract/commands.ts';
import { CommandRegistry } from '../../../../renderer/window/command-registry.ts';
import { routePanelEvent } from '../../../../renderer/window/event-router.ts';
import { FLEET_WIDE_VIEWS } from '../../../../renderer/window/location-store.ts';
import { PanelStore } from '../../../../renderer/window/panel-store.ts';
import { commandForKey } from '../../../../renderer/window/shortcuts.ts';
import { viewCommands } from '../../../../renderer/window/view-commands.ts';
import { createWindowStores } from '../../../../renderer/window/window-stores.ts';

/** Every view of the fleet is a command: from the menu (main's runCommand), its shortcut and the palette alike, it shows that view. */

function windowWithViewCommands() {
  const stores = createWindowStores();
  const commands = new CommandRegistry();
  commands.registerAll(viewCommands(stores.locationStore));
  return { ...stores, panelStore: new PanelStore(), commands, modalOpen: () => false };
}

test('each view of the fleet is a command with a title and a shortcut', () => {
  for (const view of FLEET_WIDE_VIEWS) {
    assert.ok(isCommandId(view), view);
    assert.ok(COMMANDS[view].title.length > 0 && COMMANDS[view].accelerator, `${view} has a title and a shortcut`);
  }
});

test("a view's command shows it, from any view, and again shows it rather than closing it", () => {
  const to = windowWithViewCommands();
  to.locationStore.selectOne('a');
  for (const view of FLEET_WIDE_VIEWS) {
    // As the menu hands it over.
    routePanelEvent({ type: 'runCommand', command: view }, to);
    assert.equal(to.locationStore.getSnapshot().view, view, `the menu's ${view}`);
    // As the palette or the shortcut runs it: a second time it stays.
    assert.equal(to.commands.run(view), true);
    assert.equal(to.locationStore.getSnapshot().view, view, `${view} again`);
    assert.equal(to.locationStore.getSnapshot().selectedId, 'a', 'the selection waits behind the view');
  }
});

test('the page reads each view’s shortcut as that view’s command, on every platform', () => {
  for (const mac of [false, true]) {
    for (const view of FLEET_WIDE_VIEWS) {
      const letter = COMMANDS[view].accelerator!.split('+').at(-1)!;
      const press = { key: letter.toUpperCase(), ctrlKey: !mac, metaKey: mac, shiftKey: true, altKey: false };
      assert.equal(commandForKey(press, mac), view);
      assert.equal(commandForKey({ ...press, shiftKey: false, key: letter.toLowerCase() }, mac), null, `${view}: not without Shift`);
    }
  }
});
