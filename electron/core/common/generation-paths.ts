import { GENERATION_PATHS } from '../../../shared/generations.ts';
import type { Generation } from '../../../shared/types.ts';

export { GENERATION_PATHS };

/**
 * The paths a panel takes when its generation changes: those still at the old generation's defaults
 * follow the generation; paths the operator set stay. Both the panel settings and an import use it.
 */
export function pathsFollowingGeneration(
  current: { generation: Generation; loginPath: string; sessionPath: string },
  generation: Generation,
): { loginPath?: string; sessionPath?: string } {
  if (generation === current.generation) return {};
  const moved: { loginPath?: string; sessionPath?: string } = {};
  if (current.loginPath === GENERATION_PATHS[current.generation].login) moved.loginPath = GENERATION_PATHS[generation].login;
  if (current.sessionPath === GENERATION_PATHS[current.generation].session) moved.sessionPath = GENERATION_PATHS[generation].session;
  return moved;
}
