import type { ApiStyle } from './types.ts';

/** Each API style's default paths under the API base: what a new panel, an import, a style change and the settings form start from. */
export const STYLE_PATHS: Readonly<Record<ApiStyle, { login: string; session: string }>> = {
  plain: { login: '/login', session: '/getSession' },
  rpc: { login: '/rpc/auth/login', session: '/rpc/auth/getSession' },
  trpc: { login: '/trpc/auth.login', session: '/trpc/auth.getSession' },
};

/** The styles as the panel settings offer them: by the Easypanel versions that speak each. */
export const API_STYLE_LABELS: Readonly<Record<ApiStyle, string>> = {
  plain: 'Easypanel 2.33 and later (public API)',
  rpc: 'Easypanel 2.31–2.32 (RPC)',
  trpc: 'Easypanel 2.30 and earlier (tRPC)',
};
