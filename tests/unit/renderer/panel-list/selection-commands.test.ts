import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Panel } from '../../../../shared/types.ts';
import { availableCommands, importedText, rowMenuItems, signedInWords } from '../../../../renderer/panel-list/selection-commands.ts';
import { WINDOW_VIEWS } from '../../../../renderer/window/location-store.ts';
import { PANEL_TAB_COMMANDS, PANEL_TABS } from '../../../../renderer/window/view-commands.ts';

/** What the palette and the row menu offer for one panel, and for several selected together. */

const panel = (id: string, signedIn: boolean) => ({ id, name: id, signedIn }) as Panel;

test('one panel: its own commands; several: the commands for the selection instead', () => {
  const one = panel('a', true);
  const several = [panel('a', true), panel('b', false)];
  const single = availableCommands(one, [], several, true);
  assert.ok(single.includes('refresh') && single.includes('duplicatePanel') && !single.includes('checkSelected'));
  // The window's views are offered whatever is selected.
  assert.ok(single.includes('activity') && single.includes('alerts'));
  assert.ok(single.includes('allServices') && single.includes('fleetConsole'), 'every view of the fleet is a command of the palette');
  const bulk = availableCommands(one, several, several, true);
  assert.deepEqual(
    bulk.filter((id) => id.endsWith('Selected')),
    ['logInSelected', 'checkSelected', 'logOutSelected', 'organiseSelected', 'exportSelected', 'removeSelected'],
  );
  assert.ok(!bulk.includes('refresh') && !bulk.includes('removePanel') && !bulk.includes('duplicatePanel'));
  // None signed in: nothing to check or log out of.
  const signedOut = availableCommands(null, [panel('a', false), panel('b', false)], several, false);
  assert.ok(!signedOut.includes('checkSelected') && !signedOut.includes('logOutSelected') && !signedOut.includes('preferences'));
  // Logging in is offered whatever is signed in: the dialog asks before logging in again.
  assert.ok(signedOut.includes('logInSelected'));
});

test('the row menu names how many it acts on', () => {
  assert.deepEqual(
    rowMenuItems(panel('a', false), []).map((item) => item.command),
    ['logIn', 'settings', 'openDashboard', 'copyAddress', 'copyCurl', 'duplicatePanel', 'removePanel'],
  );
  const items = rowMenuItems(panel('a', true), [panel('a', true), panel('b', false), panel('c', true)]);
  assert.deepEqual(
    items.map((item) => item.label),
    [
      'Log in to 1 panel…',
      'Check the 2 signed in',
      'Log out of the 2 signed in…',
      'Group, tag or colour 3 panels…',
      'Export 3 panels…',
      'Remove 3 panels…',
    ],
  );
  const allSignedIn = rowMenuItems(panel('a', true), [panel('a', true), panel('b', true)]);
  assert.equal(allSignedIn[0]?.label, 'Log in again to 2 panels…');
  assert.equal(signedInWords('Log out of', 0, 4), 'Log out (none signed in)');
  assert.equal(signedInWords('Check', 1, 1), 'Check 1 panel');
});

test("an import's outcome in one sentence", () => {
  assert.equal(
    importedText({ added: 1, updated: 0, unchanged: 0, invalid: 0, addedIds: ['a'] }),
    'Import done: added 1 panel, signed out.',
  );
  assert.equal(
    importedText({ added: 1200, updated: 3, unchanged: 1, invalid: 2, addedIds: [] }),
    'Import done: added 1,200 panels, signed out, updated 3, left 1 already in the list as it was, skipped 2 invalid lines.',
  );
  assert.equal(importedText({ added: 0, updated: 2, unchanged: 0, invalid: 0, addedIds: [] }), 'Import done: added 0 panels, updated 2.');
});

test('every view is a command of the palette: each view of the fleet, and each tab of a signed-in panel', () => {
  const one = panel('a', true);
  const offered = new Set(availableCommands(one, [], [one], true));
  for (const view of WINDOW_VIEWS.filter((view) => view !== 'panels')) assert.ok(offered.has(view), `the palette offers ${view}`);
  for (const tab of PANEL_TABS) {
    const command = PANEL_TAB_COMMANDS[tab];
    assert.ok(offered.has(command), `the palette offers the panel's ${tab} tab`);
  }
  // Signed out, the panel has its log in and its settings, and none of the tabs it cannot show.
  const signedOut = new Set(availableCommands(panel('b', false), [], [one], true));
  assert.ok(signedOut.has('logIn') && signedOut.has('settings') && !signedOut.has(PANEL_TAB_COMMANDS.overview));
});
