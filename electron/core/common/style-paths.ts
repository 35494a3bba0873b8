import { STYLE_PATHS } from '../../../shared/api-styles.ts';
import type { ApiStyle } from '../../../shared/types.ts';

export { STYLE_PATHS };

/**
 * The paths a panel takes when its API style changes: those still at the old style's defaults
 * follow the style; paths the operator set stay. Both the panel settings and an import use it.
 */
export function pathsFollowingStyle(
  current: { apiStyle: ApiStyle; loginPath: string; sessionPath: string },
  style: ApiStyle,
): { loginPath?: string; sessionPath?: string } {
  if (style === current.apiStyle) return {};
  const moved: { loginPath?: string; sessionPath?: string } = {};
  if (current.loginPath === STYLE_PATHS[current.apiStyle].login) moved.loginPath = STYLE_PATHS[style].login;
  if (current.sessionPath === STYLE_PATHS[current.apiStyle].session) moved.sessionPath = STYLE_PATHS[style].session;
  return moved;
}
