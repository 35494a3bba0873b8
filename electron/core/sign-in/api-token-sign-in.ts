import { PanelError } from '../../../shared/contract/errors.ts';
import type { Panel } from '../../../shared/types.ts';
import { pathsFollowingGeneration, GENERATION_PATHS } from '../common/generation-paths.ts';
import { checkApiToken } from '../easypanel/api-token-check.ts';
import type { PanelRecord } from '../storage/panel-registry.ts';
import { keepSignIn, type SignInFor, type SignInParts } from './keep-sign-in.ts';
import { attemptWrite, find } from './session-reader.ts';

/**
 * Signs a panel in with a long-lived API token the operator pasted: sent to that panel only, to
 * check it, then kept exactly like a log in's token (the vault, encrypted), marked `api-token`.
 */
export async function signInWithApiToken(parts: SignInParts, id: string, token: string, signInFor: SignInFor): Promise<Panel> {
  const { state, request, presented, changes } = parts;
  const current = await state();
  const panel = find(current, id);
  if (panel.baseUrl !== signInFor.baseUrl) {
    throw new PanelError('NOT_SIGNED_IN', "The panel's address changed before the API token was sent, so it was not sent. Paste it again.");
  }
  let acceptance: Awaited<ReturnType<typeof checkApiToken>>;
  try {
    acceptance = await checkApiToken(request, panel, token);
  } catch (error) {
    if (error instanceof PanelError && error.certificate) presented.set(id, error.certificate);
    throw error;
  }
  // The version read found the panel speaking another generation: its session reads go there from now on.
  if (acceptance.by === 'version' && current.registry.get(id)?.baseUrl === signInFor.baseUrl) {
    const moved = generationChange(panel, acceptance.generation);
    if (moved) {
      await attemptWrite(() => current.registry.update(id, moved));
      changes.changed(id);
    }
  }
  return keepSignIn(parts, current, id, token, signInFor, { tokenKind: 'api-token' });
}

/** The generation the version read answered in, when the panel's paths are the defaults (paths the operator set are theirs). */
function generationChange(panel: PanelRecord, generation: PanelRecord['generation']): Partial<PanelRecord> | null {
  const defaults = GENERATION_PATHS[panel.generation];
  if (generation === panel.generation || panel.loginPath !== defaults.login || panel.sessionPath !== defaults.session) return null;
  return { generation, ...pathsFollowingGeneration(panel, generation) };
}
