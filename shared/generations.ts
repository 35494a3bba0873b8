import type { Generation } from './types.ts';

/** Each generation's default paths under the API base: what a new panel, an import, a style change and the settings form start from. */
export const GENERATION_PATHS: Readonly<Record<Generation, { login: string; session: string }>> = {
  public: { login: '/login', session: '/getSession' },
  rpc: { login: '/rpc/auth/login', session: '/rpc/auth/getSession' },
  trpc: { login: '/trpc/auth.login', session: '/trpc/auth.getSession' },
};

/** The styles as the panel settings offer them: by the Easypanel versions that speak each. */
export const GENERATION_LABELS: Readonly<Record<Generation, string>> = {
  public: 'Easypanel 2.33 and later (public API)',
  rpc: 'Easypanel 2.31–2.32 (RPC)',
  trpc: 'Easypanel 2.30 and earlier (tRPC)',
};
