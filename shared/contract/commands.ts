/**
 * The window's commands, once: the menu (main), the keyboard, the command palette and their
 * shortcut labels all come from this list. Main only names a command; the window runs it.
 */
export const COMMANDS = {
  addPanel: { title: 'Add panel…', accelerator: 'CmdOrCtrl+N' },
  importPanels: { title: 'Import panels…', accelerator: null },
  exportPanels: { title: 'Export panels…', accelerator: null },
  openFleetFile: { title: 'Open fleet file…', accelerator: null },
  find: { title: 'Find panels', accelerator: 'CmdOrCtrl+F' },
  palette: { title: 'Command palette…', accelerator: 'CmdOrCtrl+K' },
  refresh: { title: 'Refresh the session', accelerator: 'CmdOrCtrl+R' },
  checkAll: { title: 'Check all panels', accelerator: 'CmdOrCtrl+Shift+R' },
  preferences: { title: 'Preferences…', accelerator: 'CmdOrCtrl+,' },
  // The views of the whole fleet, each in place of the panel (the window's location): Ctrl+Shift and
  // a letter of its name that no menu role, text field or list takes (not A: the lists' select all
  // ignores Shift; not E: Linux input methods take Ctrl+Shift+E for emoji).
  activity: { title: 'Activity log', accelerator: 'CmdOrCtrl+Shift+L' },
  alerts: { title: 'Alerts', accelerator: 'CmdOrCtrl+Shift+T' },
  allServices: { title: 'All services', accelerator: 'CmdOrCtrl+Shift+S' },
  backups: { title: 'Backups', accelerator: 'CmdOrCtrl+Shift+B' },
  // D for domains: C is the developer tools' inspect in Chromium.
  certificates: { title: 'Certificates', accelerator: 'CmdOrCtrl+Shift+D' },
  fleetConsole: { title: 'Fleet console', accelerator: 'CmdOrCtrl+Shift+O' },
  // The tabs of the one panel shown (its Log in and Settings are the commands below).
  showOverview: { title: 'Overview of the panel', accelerator: null },
  showServices: { title: 'Services of the panel', accelerator: null },
  showSession: { title: 'Session of the panel', accelerator: null },
  showDeployments: { title: 'Deployments of the panel', accelerator: null },
  showLogs: { title: 'Logs of the panel', accelerator: null },
  showConsole: { title: 'Console of the panel', accelerator: null },
  logIn: { title: 'Log in', accelerator: null },
  logOut: { title: 'Log out', accelerator: null },
  settings: { title: 'Panel settings', accelerator: null },
  openDashboard: { title: 'Open dashboard in the browser', accelerator: null },
  copyAddress: { title: 'Copy address', accelerator: null },
  copyCurl: { title: 'Copy as curl (session read)', accelerator: null },
  duplicatePanel: { title: 'Duplicate panel…', accelerator: null },
  removePanel: { title: 'Remove panel…', accelerator: null },
  // For several panels selected in the list (Shift or Ctrl click, Shift+arrows).
  logInSelected: { title: 'Log in to the selected panels…', accelerator: null },
  checkSelected: { title: 'Check the selected panels', accelerator: null },
  logOutSelected: { title: 'Log out of the selected panels', accelerator: null },
  organiseSelected: { title: 'Group, tag or colour the selected panels…', accelerator: null },
  exportSelected: { title: 'Export the selected panels…', accelerator: null },
  removeSelected: { title: 'Remove the selected panels…', accelerator: null },
} as const satisfies Record<string, { title: string; accelerator: string | null }>;

export type CommandId = keyof typeof COMMANDS;

export const COMMAND_IDS = Object.keys(COMMANDS) as CommandId[];

export function isCommandId(value: unknown): value is CommandId {
  return typeof value === 'string' && Object.hasOwn(COMMANDS, value);
}

/** An accelerator as the operator reads it on this platform: "Ctrl+Shift+R", "⌘⇧R". */
export function shortcutLabel(accelerator: string, mac: boolean): string {
  const parts = accelerator.split('+');
  if (!mac) return parts.map((part) => (part === 'CmdOrCtrl' ? 'Ctrl' : part)).join('+');
  const symbols: Record<string, string> = { CmdOrCtrl: '⌘', Shift: '⇧', Alt: '⌥', Ctrl: '⌃' };
  return parts.map((part) => symbols[part] ?? part).join('');
}
