import { accountKeysOf, accountSignIns } from '../sign-in/panel-accounts.ts';
import { PanelError } from '../../../shared/contract/errors.ts';
import { cleanTags, copyName, LABEL_LIMITS } from '../../../shared/labels.ts';
import { normaliseAddress, normaliseApiPath, normaliseLoginPath } from '../common/address.ts';
import { withoutUndefined } from '../common/given.ts';
import { pathsFollowingGeneration, GENERATION_PATHS } from '../common/generation-paths.ts';
import type { PanelRecordChange, PanelRegistry } from '../storage/panel-registry.ts';
import { newPanelRecord } from './new-panel.ts';
import { writeRecorder } from '../activity/activity-methods.ts';
import { endSessionsAtPanels } from '../sign-in/panel-logout.ts';
import type { RequestSettings } from '../easypanel/panel-endpoints.ts';
import {
  changingTrust,
  type CoreMethods,
  type Emit,
  type FolderAccess,
  type PresentedCertificates,
  type TrustChanges,
} from '../context/core-context.ts';
import { toPanel, type DataFolder } from '../storage/data-folder.ts';
import { attemptWrite, find } from '../sign-in/session-reader.ts';
import { endSignIn, heldSignIns, type SignInEnding } from '../sign-in/sign-in-methods.ts';

type PanelMethods = 'listPanels' | 'addPanel' | 'updatePanel' | 'removePanel' | 'removePanels' | 'duplicatePanel' | 'updatePanels';

/** Something that keeps what it read of a panel, and forgets it when the panel goes or moves. */
export interface ForgetsPanels {
  forget(panelId: string): void;
}

/**
 * What the panel list uses beside the folder: the clock, the sign-ins' ending, the certificates
 * presented, the requests and events that ask removed panels to end their sessions (recorded
 * writes), what the checks keep of each panel (its state read beside the session, its alerts), and
 * where a change of trust is told (a panel's change or removal can change which certificate it accepts).
 */
export interface PanelListParts extends FolderAccess, SignInEnding {
  now(): Date;
  presented: PresentedCertificates;
  request: RequestSettings;
  emit: Emit;
  fleet: ForgetsPanels;
  alerts: ForgetsPanels;
  trust: TrustChanges;
}

/** The panel list: adding, changing, labelling, duplicating and removing panels, one or many. */
export function panelMethods(parts: PanelListParts): CoreMethods<PanelMethods> {
  const { state, now, changes, presented, cache, reader, fleet, alerts, trust } = parts;

  /** Forgets everything this run holds for panels that are being removed. */
  async function forgetPanels(current: DataFolder, ids: readonly string[]) {
    const records = ids.flatMap((id) => current.registry.get(id) ?? []);
    // Its other accounts' sessions too: the panel is gone, and each of them with it.
    const held = [...heldSignIns(current, records), ...accountSignIns(current, records)];
    // Signed out at once whatever the disk says. A token left in the token store is dropped at
    // the next start, because the panel is no longer in the list.
    const forgetting = attemptWrite(() => current.vault.forget(...ids, ...accountKeysOf(records)));
    for (const id of ids) {
      cache.forget(id);
      reader.ended(id);
      fleet.forget(id);
      alerts.forget(id);
      current.history.forget(id);
      presented.delete(id);
    }
    // The panels are asked to end their sessions too; nobody waits for them: the panel is gone from the list.
    void endSessionsAtPanels(parts.request, held, writeRecorder(parts, current.activity));
    await forgetting;
  }

  return {
    async listPanels() {
      const current = await state();
      return current.registry.list().map((record) => toPanel(record, current));
    },

    async addPanel(added) {
      const current = await state();
      const { baseUrl, display } = normaliseAddress(added.address, { allowPlainHttp: added.allowPlainHttp ?? false });
      failIfDuplicate(current.registry, baseUrl, display);
      const record = newPanelRecord({ ...added, baseUrl, display }, now().toISOString());
      await current.registry.insert(record);
      changes.changed(record.id);
      return toPanel(record, current);
    },

    updatePanel(panelId, change) {
      return changingTrust(trust, async () => {
        const current = await state();
        const record = find(current, panelId);
        const signedIn = current.vault.token(panelId, record.baseUrl) !== undefined;
        // Settings the schema's validation is enough for are taken as given; the address, plain http and
        // the API chosen with its paths are worked out below.
        const { address: typedAddress, allowPlainHttp: plainHttpChoice, generation, loginPath, sessionPath, ...asGiven } = change;
        const next: PanelRecordChange = withoutUndefined(asGiven);
        const chosen = generation ?? record.generation;
        if (chosen !== record.generation) Object.assign(next, { generation: chosen }, pathsFollowingGeneration(record, chosen));
        if (loginPath !== undefined) next.loginPath = normaliseLoginPath(loginPath, GENERATION_PATHS[chosen].login);
        if (sessionPath !== undefined) next.sessionPath = normaliseApiPath(sessionPath, 'session', GENERATION_PATHS[chosen].session);
        const allowPlainHttp = plainHttpChoice ?? record.allowPlainHttp;
        if (allowPlainHttp !== record.allowPlainHttp) next.allowPlainHttp = allowPlainHttp;
        // Taking the choice back needs an address that works without it: normalised again below.
        const address = typedAddress ?? (plainHttpChoice === false ? record.baseUrl : undefined);
        if (address !== undefined) {
          const { baseUrl, display } = normaliseAddress(address, { allowPlainHttp });
          if (baseUrl !== record.baseUrl) {
            failIfDuplicate(current.registry, baseUrl, display);
            next.baseUrl = baseUrl;
            // The trusted certificate was the old address's server's.
            next.trustedCertificate = null;
            next.signedOutReason = signedIn
              ? { code: 'NOT_SIGNED_IN', message: 'The address changed, so the sign-in for the old address was forgotten. Log in again.' }
              : record.signedOutReason;
          }
        }
        // The token belongs to the old address; it must never be sent to the new one.
        if (next.baseUrl !== undefined) {
          const ending = endSignIn(parts, current, record, next, `signed out of ${record.name} at its old address`);
          current.history.forget(panelId);
          fleet.forget(panelId);
          presented.delete(panelId);
          // As this call leaves the panel, answered once on disk (see logInOnce).
          const answer = toPanel(current.registry.get(panelId) ?? record, current);
          const { listFailure } = await ending;
          // Signed out either way; the new address itself was not saved.
          if (listFailure) throw listFailure;
          return answer;
        }
        const saving = current.registry.update(panelId, next);
        const answer = toPanel(current.registry.get(panelId) ?? record, current);
        await saving;
        changes.changed(panelId);
        return answer;
      });
    },

    removePanel(panelId) {
      return changingTrust(trust, async () => {
        const current = await state();
        find(current, panelId);
        // Gone from the list as the sign-in ends, before either write is waited for (see endSignIns).
        const forgetting = forgetPanels(current, [panelId]);
        try {
          await current.registry.remove(panelId);
        } finally {
          await forgetting;
        }
        changes.removed(panelId);
      });
    },

    removePanels(requested) {
      return changingTrust(trust, async () => {
        const current = await state();
        const panelIds = [...new Set(requested)].filter((id) => current.registry.get(id));
        const forgetting = forgetPanels(current, panelIds);
        try {
          await current.registry.removeMany(new Set(panelIds));
        } finally {
          await forgetting;
        }
        for (const id of panelIds) changes.removed(id);
      });
    },

    async updatePanels(requested, { group, addTags, removeTags, colour, favourite, muted }) {
      const current = await state();
      const records = [...new Set(requested)].flatMap((id) => current.registry.get(id) ?? []);
      const removing = new Set((removeTags ?? []).map((tag) => tag.toLowerCase()));
      const updates = new Map<string, PanelRecordChange>();
      for (const record of records) {
        const next: PanelRecordChange = {};
        if (group !== undefined) next.group = group;
        if (colour !== undefined) next.colour = colour;
        if (favourite !== undefined) next.favourite = favourite;
        if (muted !== undefined) next.muted = muted;
        if (addTags || removeTags) {
          const tags = cleanTags([...record.tags, ...(addTags ?? [])]).filter((tag) => !removing.has(tag.toLowerCase()));
          if (tags.length > LABEL_LIMITS.tags) {
            throw new PanelError(
              'INVALID_INPUT',
              `"${record.name}" would have ${tags.length} tags (${LABEL_LIMITS.tags} at most), so nothing was changed. Remove some of its tags first.`,
            );
          }
          next.tags = tags;
        }
        updates.set(record.id, next);
      }
      const saving = current.registry.updateMany(updates);
      const answer = records.map((record) => toPanel(current.registry.get(record.id) ?? record, current));
      await saving;
      for (const record of records) changes.changed(record.id);
      return answer;
    },

    async duplicatePanel(panelId, { address, name, allowPlainHttp = false }) {
      const current = await state();
      const source = find(current, panelId);
      // Plain http is the operator's choice for the new address, as in Add panel: never the source's.
      const { baseUrl, display } = normaliseAddress(address, { allowPlainHttp });
      failIfDuplicate(current.registry, baseUrl, display);
      // The settings and labels go with it; the sign-in, the email and the certificate (the old
      // address's server's) do not.
      const copy = { ...source, baseUrl, display, allowPlainHttp, name: name || copyName(source.name), trustedCertificate: null };
      const record = newPanelRecord(copy, now().toISOString());
      await current.registry.insert(record);
      changes.changed(record.id);
      return toPanel(record, current);
    },
  };
}

function failIfDuplicate(registry: PanelRegistry, baseUrl: string, display: string): void {
  const existing = registry.findByBaseUrl(baseUrl);
  if (existing) {
    throw new PanelError('DUPLICATE_PANEL', `${display} is already in your list as "${existing.name}".`);
  }
}
