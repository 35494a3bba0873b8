import type { Panel } from '../../shared/types.ts';

/**
 * What a write must be typed to confirm when a red (production) panel is among those it goes to:
 * that panel's name when it is the only red one, else the number of panels written to.
 */
export function typedConfirmation(panels: readonly Pick<Panel, 'name' | 'colour'>[]): string | null {
  const red = panels.filter((panel) => panel.colour === 'red');
  if (red.length === 0) return null;
  return red.length === 1 ? red[0]!.name : String(panels.length);
}
