import type { MenuItemConstructorOptions } from 'electron';
import { COMMANDS, type CommandId } from '../../shared/contract/commands.ts';

const separator: MenuItemConstructorOptions = { type: 'separator' };

/**
 * The application menu: standard roles for the OS's own work (so copy, paste and select all work
 * in the page), and the window's commands with their shortcuts, which `run` hands to the window.
 * No reload role: Ctrl+R and F5 refresh the selected session. Developer tools and a reload (on
 * Ctrl+Alt+Shift+R) are listed only in an unpackaged build.
 */
export function appMenuTemplate(
  platform: NodeJS.Platform,
  appName: string,
  isPackaged: boolean,
  run: (command: CommandId) => void = () => undefined,
): MenuItemConstructorOptions[] {
  const mac = platform === 'darwin';
  const command = (id: CommandId, extra: Partial<MenuItemConstructorOptions> = {}): MenuItemConstructorOptions => {
    const { title, accelerator } = COMMANDS[id];
    return { label: title, ...(accelerator ? { accelerator } : {}), click: () => run(id), ...extra };
  };
  const appMenu: MenuItemConstructorOptions[] = mac
    ? [
        {
          label: appName,
          submenu: [
            { role: 'about' },
            separator,
            command('preferences'),
            separator,
            { role: 'services' },
            separator,
            { role: 'hide' },
            { role: 'hideOthers' },
            { role: 'unhide' },
            separator,
            { role: 'quit' },
          ],
        },
      ]
    : [];
  return [
    ...appMenu,
    {
      label: 'File',
      submenu: [
        command('addPanel'),
        command('importPanels'),
        command('exportPanels'),
        command('openFleetFile'),
        ...(mac ? [] : [separator, command('preferences')]),
        separator,
        mac ? { role: 'close' } : { role: 'quit' },
      ],
    },
    {
      label: 'Edit',
      submenu: [
        { role: 'undo' },
        { role: 'redo' },
        separator,
        { role: 'cut' },
        { role: 'copy' },
        { role: 'paste' },
        ...(mac ? [{ role: 'pasteAndMatchStyle' } satisfies MenuItemConstructorOptions] : []),
        { role: 'delete' },
        separator,
        { role: 'selectAll' },
      ],
    },
    {
      label: 'View',
      submenu: [
        command('palette'),
        command('find'),
        separator,
        command('activity'),
        command('alerts'),
        command('allServices'),
        command('backups'),
        command('certificates'),
        command('fleetConsole'),
        separator,
        ...(isPackaged
          ? []
          : [
              { role: 'forceReload', accelerator: 'CmdOrCtrl+Alt+Shift+R' } satisfies MenuItemConstructorOptions,
              { role: 'toggleDevTools' } satisfies MenuItemConstructorOptions,
              separator,
            ]),
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        separator,
        { role: 'togglefullscreen' },
      ],
    },
    {
      label: 'Panel',
      submenu: [
        // F5 too, as in a browser; the menu lists one shortcut per entry, so F5's entry is hidden.
        command('refresh'),
        command('refresh', { accelerator: 'F5', visible: false }),
        command('checkAll'),
        separator,
        command('logIn'),
        command('logOut'),
        command('settings'),
        separator,
        command('openDashboard'),
        command('copyAddress'),
        command('copyCurl'),
        separator,
        command('duplicatePanel'),
        command('removePanel'),
      ],
    },
    mac
      ? { label: 'Window', role: 'window', submenu: [{ role: 'minimize' }, { role: 'zoom' }, separator, { role: 'front' }] }
      : { label: 'Window', submenu: [{ role: 'minimize' }, { role: 'close' }] },
  ];
}
