import type { ReactNode } from 'react';
import type { Panel } from '../../shared/types.ts';
import { isApiTokenSignIn } from '../panel-status.ts';
import { count } from '../selection-commands.ts';

/** What an action on several panels that loses something asks before it runs: once, naming the panels. */
export interface BulkQuestion {
  title: string;
  /** The danger button's words, which name the action and how many it acts on. */
  confirmLabel: string;
  body: ReactNode;
  /** Carries out the action once the operator confirmed. */
  run(): void;
}

const NAMES_SHOWN = 8;

/** "Alpha, Bravo, Charlie", or the first few and "and 58 more". */
export function panelNames(panels: readonly Pick<Panel, 'name'>[]): string {
  const shown = panels
    .slice(0, NAMES_SHOWN)
    .map((panel) => panel.name)
    .join(', ');
  return panels.length > NAMES_SHOWN ? `${shown}, and ${panels.length - NAMES_SHOWN} more` : shown;
}

/** Remove: Paneldeck forgets the panels and their sign-ins. */
export function removeQuestion(panels: readonly Panel[], run: () => void): BulkQuestion {
  const many = count(panels.length);
  return {
    title: `Remove ${many}?`,
    confirmLabel: `Remove ${many}`,
    run,
    body: (
      <p>
        Paneldeck forgets these {many} and their saved sign-ins: {panelNames(panels)}. The panels themselves are not changed; you can add or
        import them again at any time.
      </p>
    ),
  };
}

/** Log out: the signed-in panels among `panels` lose their sign-ins; the others are named as left alone. */
export function logOutQuestion(panels: readonly Panel[], run: () => void): BulkQuestion {
  const signedIn = panels.filter((panel) => panel.signedIn);
  const signedOut = panels.filter((panel) => !panel.signedIn);
  const apiTokens = signedIn.filter(isApiTokenSignIn).length;
  const many = count(signedIn.length);
  return {
    title: `Log out of ${many}?`,
    confirmLabel: `Log out of ${many}`,
    run,
    body: (
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
