import type { PanelApi } from '../../shared/contract/contract.ts';
import type { Theme } from '../../shared/types.ts';

/**
 * `service` whose theme setting also sets Electron's `nativeTheme.themeSource` (menus, scroll
 * bars, the window's background before the page paints): at start and after each change.
 */
export function followTheme<S extends Pick<PanelApi, 'updateSettings' | 'getAppStatus'>>(
  service: S,
  setThemeSource: (theme: Theme) => void,
): S {
  void service.getAppStatus().then(
    (status) => setThemeSource(status.settings.theme),
    () => undefined, // The settings could not be read: the system's theme stays.
  );
  return {
    ...service,
    updateSettings: async (patch) => {
      const status = await service.updateSettings(patch);
      setThemeSource(status.settings.theme);
      return status;
    },
  };
}
