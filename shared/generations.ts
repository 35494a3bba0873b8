import type { Generation } from './types.ts';

/** Each generation's default paths under the API base: what a new panel, an import, a change of generation and the settings form start from. */
export const GENERATION_PATHS: Readonly<Record<Generation, { login: string; session: string }>> = {
  public: { login: '/login', session: '/getSession' },
  rpc: { login: '/rpc/auth/login', session: '/rpc/auth/getSession' },
  trpc: { login: '/trpc/auth.login', session: '/trpc/auth.getSession' },
};

/** The generations as the panel settings offer them: by the Easypanel versions that speak each. */
export const GENERATION_LABELS: Readonly<Record<Generation, string>> = {
  public: 'Easypanel 2.33 and later (public API)',
  rpc: 'Easypanel 2.31–2.32 (RPC)',
  trpc: 'Easypanel 2.30 and earlier (tRPC)',
};

/** What a panel's generation was called before the rename, and what 2.33+ was called. */
const OLD_FIELD = 'apiStyle'; // retired-word: the field of panels.json up to format 3 and of exports of format 1
const OLD_PUBLIC = 'plain'; // retired-word: the 2.33+ generation's old value

/**
 * A panel entry as panels.json (up to format 3) and exports (format 1) wrote it, with the old
 * field read as `generation` and the old 2.33+ value as `public`: read forever, by the panel
 * list's migration and by import alike. An entry without the old field (or that has both) is
 * returned as it is.
 */
export function withGenerationField(entry: Readonly<Record<string, unknown>>): Record<string, unknown> {
  if (!Object.hasOwn(entry, OLD_FIELD) || Object.hasOwn(entry, 'generation')) return { ...entry };
  const { [OLD_FIELD]: old, ...rest } = entry;
  return { ...rest, generation: old === OLD_PUBLIC ? 'public' : old };
}
