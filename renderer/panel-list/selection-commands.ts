import { COMMANDS, type CommandId } from '../../shared/contract/commands.ts';
import { plural } from '../../shared/counts.ts';
import type { ImportResult } from '../../shared/transfer.ts';
import type { Panel } from '../../shared/types.ts';
import { fleetLogInLabel } from '../sign-in/index.ts';
import { SIGNED_IN_TAB_COMMANDS } from '../window/view-commands.ts';

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
export function availableCommands(
  selected: Panel | null,
  marked: readonly Panel[],
  panels: readonly Panel[],
  hasStatus: boolean,
): CommandId[] {
  const several = marked.length > 1;
  const commands: (CommandId | false)[] = [
    'addPanel',
    'importPanels',
    panels.length > 0 && 'exportPanels',
    'openFleetFile',
    'find',
    panels.some((panel) => panel.signedIn) && 'checkAll',
    ...(several ? severalCommands(marked) : selected ? onePanelCommands(selected) : []),
    'activity',
    'alerts',
    'allServices',
    'backups',
    'certificates',
    'fleetConsole',
    // The tabs of the one panel shown, after the fleet's views, and its Log in again (Settings is among its commands above).
    ...(!several && selected?.signedIn ? [...SIGNED_IN_TAB_COMMANDS, 'logIn' as const] : []),
    hasStatus && 'preferences',
  ];
  return commands.filter((command): command is CommandId => command !== false);
}

/** What can be done to the one panel shown, in the palette's and the row menu's order. */
function onePanelCommands(panel: Panel): CommandId[] {
  const session: CommandId[] = panel.signedIn ? ['refresh', 'logOut'] : ['logIn'];
  return [...session, 'settings', 'openDashboard', 'copyAddress', 'copyCurl', 'duplicatePanel', 'removePanel'];
}

/** What can be done to the panels selected together; checking and logging out need one signed in. */
function severalCommands(marked: readonly Panel[]): CommandId[] {
  const signedIn = marked.some((panel) => panel.signedIn);
  return [
    'logInSelected',
    ...(signedIn ? (['checkSelected', 'logOutSelected'] as const) : []),
    'organiseSelected',
    'exportSelected',
    'removeSelected',
  ];
}

export const count = (n: number) => plural(n, 'panel');

/** "Check 5 panels" when all are signed in, "Check the 2 signed in", "Check (none signed in)". */
export function signedInWords(verb: string, signedIn: number, all: number): string {
  if (signedIn === 0) return `${verb.replace(/ of$/, '')} (none signed in)`;
  return signedIn === all ? `${verb} ${count(all)}` : `${verb} the ${signedIn} signed in`;
}

/** Where the row menu draws a line above an item: between its groups. */
const GROUP_STARTS: ReadonlySet<CommandId> = new Set(['openDashboard', 'duplicatePanel', 'removeSelected']);
const DANGEROUS: ReadonlySet<CommandId> = new Set(['removePanel', 'removeSelected']);

/** The row menu: the palette's commands for the panel right-clicked, or for the panels selected together. */
export function rowMenuItems(selected: Panel, marked: readonly Panel[]): RowMenuItem[] {
  const several = marked.length > 1;
  const commands = several ? severalCommands(marked) : onePanelCommands(selected);
  const label = several ? severalLabels(marked) : (command: CommandId) => COMMANDS[command].title;
  return commands.map((command, index) => ({
    command,
    label: label(command),
    // The bulk actions after Check and Log out start a group of their own.
    separated: GROUP_STARTS.has(command) || (command === 'organiseSelected' && index > 0),
    danger: DANGEROUS.has(command),
  }));
}

/** The bulk commands' words in the row menu, with how many they act on. */
function severalLabels(marked: readonly Panel[]): (command: CommandId) => string {
  const many = count(marked.length);
  const signedIn = marked.filter((panel) => panel.signedIn).length;
  const labels: Partial<Record<CommandId, string>> = {
    logInSelected: fleetLogInLabel(marked),
    checkSelected: signedInWords('Check', signedIn, marked.length),
    // It asks first (what the three dots say), as Remove does.
    logOutSelected: `${signedInWords('Log out of', signedIn, marked.length)}…`,
    organiseSelected: `Group, tag or colour ${many}…`,
    exportSelected: `Export ${many}…`,
    removeSelected: `Remove ${many}…`,
  };
  return (command) => labels[command] ?? COMMANDS[command].title;
}

/** What an import did, in one sentence for the window's notice. */
export function importedText({ added, updated, unchanged, invalid }: ImportResult): string {
  const parts = [
    `added ${plural(added, 'panel')}${added > 0 ? ', signed out' : ''}`,
    updated > 0 && `updated ${updated.toLocaleString('en')}`,
    unchanged > 0 && `left ${unchanged.toLocaleString('en')} already in the list as ${unchanged === 1 ? 'it was' : 'they were'}`,
    invalid > 0 && `skipped ${plural(invalid, 'invalid line')}`,
  ].filter(Boolean);
  // The next step, logging in to those added, is the notice's own button (window-dialogs.tsx).
  return `Import done: ${parts.join(', ')}.`;
}
