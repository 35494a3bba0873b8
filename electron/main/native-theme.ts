import type { Core } from '../core/index.ts';
import type { Theme } from '../../shared/types.ts';

/**
 * Electron's `nativeTheme.themeSource` (menus, scroll bars, the window's background before the
 * page paints) follows the theme setting: at start, and after each change the core tells of
 * (`onSettingsChanged`; a refused change tells nothing). Returns the unsubscribe.
 */
export function followTheme(core: Pick<Core, 'getAppStatus' | 'onSettingsChanged'>, setThemeSource: (theme: Theme) => void): () => void {
  const unsubscribe = core.onSettingsChanged((settings) => setThemeSource(settings.theme));
  void core.getAppStatus().then(
    (status) => setThemeSource(status.settings.theme),
    () => undefined, // The settings could not be read: the system's theme stays.
  );
  return unsubscribe;
}
