import { accountKey } from './panel-record.ts';
import type { ErrorInfo } from '../../../shared/contract/errors.ts';
import type { Panel, StartupProblem } from '../../../shared/types.ts';
import { normaliseAddress } from '../common/address.ts';
import type { ActivityLog } from './activity-log.ts';
import { SettingsFile } from './app-settings.ts';
import { AlertList } from './alert-list.ts';
import { CheckHistory } from './check-history.ts';
import type { OpenStore } from './document-store.ts';
import { PanelRegistry, type PanelRecord, type PanelRecordChange } from './panel-registry.ts';
import { TokenVault, type Encryption } from './token-vault.ts';

/** Everything a running service keeps, opened once from the data folder. */
export interface DataFolder {
  registry: PanelRegistry;
  vault: TokenVault;
  settings: SettingsFile;
  history: CheckHistory;
  /** Every write to a panel, with its outcome (`activity.jsonl`). */
  activity: ActivityLog;
  /** The last alerts (`alerts.json`). */
  alerts: AlertList;
  startupProblems: StartupProblem[];
  /** The name of each fleet file followed (by its id): what a panel of one shows as its file (`fleet-files/`). */
  fleetFileNames: Map<string, string>;
}

export async function openDataFolder(
  openStore: OpenStore,
  openActivity: () => Promise<ActivityLog>,
  encryption: Encryption,
  now: Date,
): Promise<DataFolder> {
  const registry = new PanelRegistry(openStore('panels', { secret: false }), now);
  const settings = new SettingsFile(openStore('settings', { secret: false }), now);
  const history = new CheckHistory(openStore('checks', { secret: false }));
  const alerts = new AlertList(openStore('alerts', { secret: false }));
  // Check results of an older version lived in the panel list; they move to the check history.
  for (const record of registry.list()) history.seed(record.id, { lastCheck: record.lastCheck, sessionExpiresAt: null });
  registry.dropLegacyChecks();

  const policy = { allowWeak: () => settings.get().storeTokensWithWeakProtection };
  const panels = new Map<string, { baseUrl: string; signedIn: boolean }>();
  for (const record of registry.list()) {
    panels.set(record.id, { baseUrl: record.baseUrl, signedIn: record.tokenStorage !== null });
    // Each other account's token under its own key, bound to the panel's address like the panel's.
    for (const account of record.accounts)
      panels.set(accountKey(record.id, account.id), { baseUrl: record.baseUrl, signedIn: account.tokenStorage !== null });
  }
  const list = { panels, complete: registry.loadProblem === null };
  const { vault, problems, fileProblem } = await TokenVault.open(openStore('tokens', { secret: true }), encryption, now, policy, list);
  // Say why panels that were signed in last time are not any more, in one write for all of them.
  const changes = new Map<string, PanelRecordChange>();
  for (const record of registry.list()) {
    // Another account whose token could not be read is signed out; it is signed in again by adding it again.
    const lost = record.accounts.filter(
      (account) => account.tokenStorage !== null && !vault.token(accountKey(record.id, account.id), record.baseUrl),
    );
    if (lost.length > 0) {
      const accounts = record.accounts.map((account) => (lost.includes(account) ? { ...account, tokenStorage: null } : account));
      // Its writes still go as it (refused until it is signed in again), never quietly as another account.
      changes.set(record.id, { accounts });
    }
    if (record.tokenStorage === null || vault.token(record.id, record.baseUrl)) continue;
    const reason = problems.get(record.id) ?? (record.tokenStorage !== 'memory' ? fileProblem?.info : null) ?? lostTokenReason(record);
    // A sign-in kept on disk for when the keyring is back stays recorded; only an ended one is null.
    changes.set(record.id, {
      ...changes.get(record.id),
      tokenStorage: vault.keeps(record.id) ? record.tokenStorage : null,
      signedOutReason: reason,
    });
  }
  try {
    await registry.updateMany(changes);
  } catch {
    // The reasons are worked out again at the next start; the panels are signed out either way.
  }
  const startupProblems: StartupProblem[] = [];
  if (registry.loadProblem)
    startupProblems.push({ file: 'panels', message: registry.loadProblem.message, copyPath: registry.loadProblem.movedTo });
  if (fileProblem) startupProblems.push({ file: 'tokens', message: fileProblem.summary, copyPath: fileProblem.copyPath });
  if (settings.loadProblem) startupProblems.push(settings.loadProblem);
  const activity = await openActivity();
  if (activity.problem) startupProblems.push(activity.problem);
  return { registry, vault, settings, history, activity, alerts, startupProblems, fleetFileNames: new Map() };
}

function lostTokenReason(record: PanelRecord): ErrorInfo {
  return record.tokenStorage === 'memory'
    ? {
        code: 'NOT_SIGNED_IN',
        message:
          'The token was kept in memory only (no secure storage on this system) and is gone since Paneldeck restarted. Log in again.',
      }
    : { code: 'TOKEN_UNREADABLE', message: 'The saved sign-in was not found in the token store. Log in again.' };
}

/**
 * The panel as the contract shows it: the record, what the vault holds, and what checks learnt.
 * The record's fields pass as they are; only the ones worked out when shown are named here.
 */
export function toPanel(record: PanelRecord, state: Pick<DataFolder, 'vault' | 'history' | 'fleetFileNames'>): Panel {
  const signedIn = state.vault.token(record.id, record.baseUrl) !== undefined;
  const checks = state.history.get(record.id);
  return {
    ...record,
    address: normaliseAddress(record.baseUrl, { allowPlainHttp: record.allowPlainHttp }).display,
    signedIn,
    tokenStorage: state.vault.storage(record.id),
    tokenKind: signedIn ? (record.tokenKind ?? 'session') : null,
    signedOutReason: signedIn ? null : record.signedOutReason,
    lastCheck: checks.lastCheck,
    // An API token never ends by itself: no end is shown or warned about, whatever a read said.
    sessionExpiresAt: signedIn && record.tokenKind !== 'api-token' ? checks.sessionExpiresAt : null,
    // Known while signed out too: it is the server's, not the sign-in's.
    panelVersion: checks.panelVersion,
    updateAvailable: checks.updateAvailable,
    fleetFileName: record.fleetFile === null ? null : (state.fleetFileNames.get(record.fleetFile) ?? null),
  };
}
