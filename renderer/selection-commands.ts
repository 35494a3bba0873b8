import { COMMANDS, type CommandId } from '../shared/commands.ts';
import type { ImportResult } from '../shared/transfer.ts';
import type { Panel } from '../shared/types.ts';

/**
 * Which commands make sense for what is selected: one panel (its view is shown) or several
 * (the bulk view is shown, and the one-panel commands would have nothing to act on).
 */

export interface RowMenuItem {
  command: CommandId;
  label: string;
  /** A line above this item: the menu's groups. */
  separated?: boolean;
  danger?: boolean;
}

/** The palette's commands now, in its order. */
export function availableCommands(selected: Panel | null, marked: readonly Panel[], panels: readonly Panel[], hasStatus: boolean): CommandId[] {
  const several = marked.length > 1;
  const one = several ? null : selected;
  const commands: (CommandId | false)[] = [
    'addPanel',
    'importPanels',
    panels.length > 0 && 'exportPanels',
    'find',
    panels.some((panel) => panel.signedIn) && 'checkAll',
    ...(several ? severalCommands(marked) : []),
    one?.signedIn === true && 'refresh',
    one?.signedIn === false && 'logIn',
    one?.signedIn === true && 'logOut',
    one !== null && 'settings',
    one !== null && 'openDashboard',
    one !== null && 'copyAddress',
    one !== null && 'copyCurl',
    one !== null && 'duplicatePanel',
    one !== null && 'removePanel',
    hasStatus && 'preferences',
  ];
  return commands.filter((command): command is CommandId => command !== false);
}

function severalCommands(marked: readonly Panel[]): (CommandId | false)[] {
  const signedIn = marked.some((panel) => panel.signedIn);
  return [signedIn && 'checkSelected', signedIn && 'logOutSelected', 'organiseSelected', 'exportSelected', 'removeSelected'];
}

export const count = (n: number) => `${n.toLocaleString('en')} panel${n === 1 ? '' : 's'}`;

/** "Check 5 panels" when all are signed in, "Check the 2 signed in", "Check (none signed in)". */
export function signedInWords(verb: string, signedIn: number, all: number): string {
  if (signedIn === 0) return `${verb.replace(/ of$/, '')} (none signed in)`;
  return signedIn === all ? `${verb} ${count(all)}` : `${verb} the ${signedIn} signed in`;
}

/** The row menu: for the panel right-clicked, or for the panels selected together. */
export function rowMenuItems(selected: Panel, marked: readonly Panel[]): RowMenuItem[] {
  if (marked.length > 1) {
    const many = count(marked.length);
    const signedIn = marked.filter((panel) => panel.signedIn).length;
    return [
      ...(signedIn > 0
        ? [
            { command: 'checkSelected' as const, label: signedInWords('Check', signedIn, marked.length) },
            { command: 'logOutSelected' as const, label: signedInWords('Log out of', signedIn, marked.length) },
          ]
        : []),
      { command: 'organiseSelected', label: `Group, tag or colour ${many}…`, separated: signedIn > 0 },
      { command: 'exportSelected', label: `Export ${many}…` },
      { command: 'removeSelected', label: `Remove ${many}…`, separated: true, danger: true },
    ];
  }
  const title = (command: CommandId) => COMMANDS[command].title;
  return [
    selected.signedIn ? { command: 'refresh', label: title('refresh') } : { command: 'logIn', label: title('logIn') },
    ...(selected.signedIn ? [{ command: 'logOut' as const, label: title('logOut') }] : []),
    { command: 'settings', label: title('settings') },
    { command: 'openDashboard', label: title('openDashboard'), separated: true },
    { command: 'copyAddress', label: title('copyAddress') },
    { command: 'copyCurl', label: title('copyCurl') },
    { command: 'duplicatePanel', label: title('duplicatePanel'), separated: true },
    { command: 'removePanel', label: title('removePanel'), danger: true },
  ];
}

/** What an import did, in one sentence for the window's notice. */
export function importedText({ added, updated, unchanged, invalid }: ImportResult): string {
  const parts = [
    `added ${added.toLocaleString('en')} panel${added === 1 ? '' : 's'}`,
    updated > 0 && `updated ${updated.toLocaleString('en')}`,
    unchanged > 0 && `left ${unchanged.toLocaleString('en')} already in the list as ${unchanged === 1 ? 'it was' : 'they were'}`,
    invalid > 0 && `skipped ${invalid.toLocaleString('en')} invalid line${invalid === 1 ? '' : 's'}`,
  ].filter(Boolean);
  return `Import done: ${parts.join(', ')}. Imported panels are signed out: log in to each to use it.`;
}
