import type { ApiStyle } from '../../../shared/types.ts';

/** Each API style's default paths under the API base: what a new panel, an import and a style change start from. */
export const STYLE_PATHS: Readonly<Record<ApiStyle, { login: string; session: string }>> = {
  plain: { login: '/login', session: '/getSession' },
  trpc: { login: '/trpc/auth.login', session: '/trpc/auth.getSession' },
};
