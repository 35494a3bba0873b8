import type { ActivityEntry, ActivityOutcome, ActivityWhat } from '../../shared/types.ts';

/** How each outcome is said beside its colour and shape. */
export const OUTCOME_NAMES: Readonly<Record<ActivityOutcome, string>> = {
  pending: 'Waiting for the panel',
  ok: 'Done',
  failed: 'Failed',
  unknown: 'Outcome unknown',
  'not-sent': 'Not sent',
};

const ACTION_NAMES: Readonly<Record<ActivityWhat['action'], string>> = {
  logIn: 'Log in',
  logInWithApiToken: 'Log in with an API token',
  logOut: 'Log out (end the session at the panel)',
  deploy: 'Deploy',
  start: 'Start',
  stop: 'Stop',
  restart: 'Restart',
  operation: 'Console call',
};

/** "Deploy shop/web", "Log out (end the session at the panel)". */
export function whatText(what: ActivityWhat): string {
  const target = what.operation ?? [what.projectName, what.serviceName].filter(Boolean).join('/');
  return target ? `${ACTION_NAMES[what.action]} ${target}` : ACTION_NAMES[what.action];
}

/** The text a search looks in, lower case, once per entry (entries never change: a new outcome is a new object). */
const searchTexts = new WeakMap<ActivityEntry, string>();

function searchText(entry: ActivityEntry): string {
  let text = searchTexts.get(entry);
  if (text === undefined) {
    text = [entry.panelName, entry.panelAddress, whatText(entry.what), OUTCOME_NAMES[entry.outcome], entry.outcome, entry.message ?? '']
      .join('\n')
      .toLowerCase();
    searchTexts.set(entry, text);
  }
  return text;
}

/** The entries of `panelId` (or all) holding every word of `query`, in the order given (newest first). */
export function filterActivity(entries: readonly ActivityEntry[], panelId: string | null, query: string): ActivityEntry[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  return entries.filter(
    (entry) => (panelId === null || entry.panelId === panelId) && words.every((word) => searchText(entry).includes(word)),
  );
}
