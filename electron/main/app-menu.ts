import type { MenuItemConstructorOptions } from 'electron';

const separator: MenuItemConstructorOptions = { type: 'separator' };

/**
 * The application menu: standard roles only, so the OS and Electron do the work (and the
 * keyboard shortcuts of copy, paste and select all work in the page). Developer tools are
 * listed only in an unpackaged build.
 */
export function appMenuTemplate(platform: NodeJS.Platform, appName: string, isPackaged: boolean): MenuItemConstructorOptions[] {
  const mac = platform === 'darwin';
  const appMenu: MenuItemConstructorOptions[] = mac
    ? [
        {
          label: appName,
          submenu: [
            { role: 'about' },
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
    { label: 'File', submenu: [mac ? { role: 'close' } : { role: 'quit' }] },
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
        { role: 'reload' },
        { role: 'forceReload' },
        ...(isPackaged ? [] : [{ role: 'toggleDevTools' } satisfies MenuItemConstructorOptions]),
        separator,
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        separator,
        { role: 'togglefullscreen' },
      ],
    },
    mac
      ? { label: 'Window', role: 'window', submenu: [{ role: 'minimize' }, { role: 'zoom' }, separator, { role: 'front' }] }
      : { label: 'Window', submenu: [{ role: 'minimize' }, { role: 'close' }] },
  ];
}
