import type { ReactNode } from 'react';
import { plural } from '../../shared/counts.ts';
import type { PanelColour } from '../../shared/labels.ts';
import type { Panel } from '../../shared/types.ts';
import { isApiTokenSignIn } from '../ui/panel-status.ts';
import { count } from './selection-commands.ts';

/**
 * What an action on several panels that loses something asks before it runs: once, naming the
 * panels that lose it. The label questions are null when nothing would be lost (adding never asks).
 */
export interface BulkQuestion {
  title: string;
  /** The danger button's words, which name the action and how many it acts on. */
  confirmLabel: string;
  /** What it does, naming the panels that lose something (the confirmation's `effect`). */
  effect: ReactNode;
}

const NAMES_SHOWN = 8;

/** "Alpha, Bravo, Charlie", or the first few and "and 58 more"; with `detail`, "Alpha (Beta), ...". */
export function panelNames<P extends Pick<Panel, 'name'>>(panels: readonly P[], detail?: (panel: P) => string): string {
  const shown = panels
    .slice(0, NAMES_SHOWN)
    .map((panel) => (detail ? `${panel.name} (${detail(panel)})` : panel.name))
    .join(', ');
  return panels.length > NAMES_SHOWN ? `${shown}, and ${panels.length - NAMES_SHOWN} more` : shown;
}

/** Remove: Paneldeck forgets the panels and their sign-ins. */
export function removeQuestion(panels: readonly Panel[]): BulkQuestion {
  const many = count(panels.length);
  return {
    title: `Remove ${many}?`,
    confirmLabel: `Remove ${many}`,
    effect: (
      <p>
        Paneldeck forgets these {many} and their saved sign-ins: {panelNames(panels)}. The panels themselves are not changed; you can add or
        import them again at any time.
      </p>
    ),
  };
}

/** Log out: the signed-in panels among `panels` lose their sign-ins; the others are named as left alone. */
export function logOutQuestion(panels: readonly Panel[]): BulkQuestion {
  const signedIn = panels.filter((panel) => panel.signedIn);
  const signedOut = panels.filter((panel) => !panel.signedIn);
  const apiTokens = signedIn.filter(isApiTokenSignIn).length;
  const many = count(signedIn.length);
  return {
    title: `Log out of ${many}?`,
    confirmLabel: `Log out of ${many}`,
    effect: (
      <>
        <p>
          Paneldeck forgets the sign-ins of these {many} and ends their sessions at the panels: {panelNames(signedIn)}. To use them again,
          you log in to each.
        </p>
        {apiTokens > 0 && (
          <p>
            {apiTokens === 1 ? 'One of them is' : `${apiTokens.toLocaleString('en')} of them are`} signed in with an API token: it is
            forgotten here and stays valid until it is revoked in Easypanel.
          </p>
        )}
        {signedOut.length > 0 && (
          <p className="muted">
            {panelNames(signedOut)} {signedOut.length === 1 ? 'is' : 'are'} not signed in and stay{signedOut.length === 1 ? 's' : ''} as{' '}
            {signedOut.length === 1 ? 'it is' : 'they are'}.
          </p>
        )}
      </>
    ),
  };
}

/** Move to a group (null: out of their groups): asks when some would leave another group. */
export function groupQuestion(panels: readonly Panel[], group: string | null): BulkQuestion | null {
  const leaving = panels.filter((panel) => panel.group !== null && panel.group !== group);
  if (leaving.length === 0) return null;
  const many = count(panels.length);
  return {
    title: group === null ? `Take ${many} out of their groups?` : `Move ${many} to ${group}?`,
    confirmLabel: group === null ? `Take ${many} out` : `Move ${many}`,
    effect: (
      <p>
        {leavingWords(leaving.length, 'their group', 'its group')}: {panelNames(leaving, (panel) => panel.group ?? '')}.
      </p>
    ),
  };
}

/** Remove tags: asks when some have one of them (tags match whatever their case, as main matches them). */
export function removeTagsQuestion(panels: readonly Panel[], tags: readonly string[]): BulkQuestion | null {
  const removing = new Set(tags.map((tag) => tag.toLowerCase()));
  const losing = panels.filter((panel) => panel.tags.some((tag) => removing.has(tag.toLowerCase())));
  if (losing.length === 0) return null;
  const named = `the ${tags.length === 1 ? 'tag' : 'tags'} ${tags.join(', ')}`;
  return {
    title: `Remove ${named} from ${count(losing.length)}?`,
    confirmLabel: `Remove ${tags.length === 1 ? 'the tag' : 'the tags'}`,
    effect: (
      <p>
        {losing.length === 1 ? 'It loses' : 'They lose'} {named}: {panelNames(losing, (panel) => panel.tags.join(', '))}.
      </p>
    ),
  };
}

/** Set a colour (null: none): asks when some have another colour. */
export function colourQuestion(panels: readonly Panel[], colour: PanelColour | null): BulkQuestion | null {
  const losing = panels.filter((panel) => panel.colour !== null && panel.colour !== colour);
  if (losing.length === 0) return null;
  const many = count(panels.length);
  return {
    title: colour === null ? `Take the colour off ${many}?` : `Colour ${many} ${colour}?`,
    confirmLabel: colour === null ? `Take the colour off ${many}` : `Colour ${many}`,
    effect: (
      <p>
        {leavingWords(losing.length, 'their colour', 'its colour')}: {panelNames(losing, (panel) => panel.colour ?? '')}.
      </p>
    ),
  };
}

/** Unmark favourites: asks when some are favourites. */
export function unmarkQuestion(panels: readonly Panel[]): BulkQuestion | null {
  const losing = panels.filter((panel) => panel.favourite);
  if (losing.length === 0) return null;
  return {
    title: `Unmark ${plural(losing.length, 'favourite')}?`,
    confirmLabel: `Unmark ${count(losing.length)}`,
    effect: (
      <p>
        {losing.length === 1 ? 'It is' : 'They are'} no longer marked as a favourite: {panelNames(losing)}.
      </p>
    ),
  };
}

/** "1 panel loses its group", "3 panels lose their group". */
function leavingWords(n: number, many: string, one: string): string {
  return n === 1 ? `1 panel loses ${one}` : `${count(n)} lose ${many}`;
}
