import type { ApiStyle } from '../../../shared/types.ts';

/** Each API style's default paths under the API base: what a new panel, an import and a style change start from. */
export const STYLE_PATHS: Readonly<Record<ApiStyle, { login: string; session: string }>> = {
  plain: { login: '/login', session: '/getSession' },
  trpc: { login: '/trpc/auth.login', session: '/trpc/auth.getSession' },
};

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
