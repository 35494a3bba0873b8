import { PanelError } from '../../../shared/contract/errors.ts';
import type { AppSettings } from '../../../shared/types.ts';
import type { PanelChanges } from '../context/change-batchers.ts';
import type { CoreMethods, CoreOptions, FolderAccess } from '../context/core-context.ts';
import { attemptWrite } from '../sign-in/session-reader.ts';

type AppMethods = 'getAppStatus' | 'updateSettings' | 'installUpdate' | 'currentSettings' | 'loadProblem' | 'migration' | 'flush';

/** Where a change of the settings is told (`Core.onSettingsChanged`), with the settings as they are after it. */
export interface SettingsChanges {
  changed(settings: AppSettings): void;
}

/** What the app's methods use: the folder, the clock, the window's changes, where a settings change is told, and what holds events back until `flush`. */
export interface AppParts extends FolderAccess {
  now(): Date;
  changes: PanelChanges;
  settingsChanges: SettingsChanges;
  /** Each batcher of events (changed panels, fleet state, kept services), sent at once by `flush`, in this order. */
  batched: readonly { flush(): void }[];
}

/** The app as a whole: its settings, how tokens are protected, what was repaired at start, the update. */
export function appMethods(parts: AppParts, options: Pick<CoreOptions, 'installUpdate'>): CoreMethods<AppMethods> {
  const { state, now, changes, settingsChanges, batched } = parts;
  return {
    async getAppStatus() {
      const { settings, vault, startupProblems } = await state();
      return { settings: settings.get(), tokenProtection: await vault.protection(), startupProblems };
    },

    async updateSettings(change) {
      const current = await state();
      const { registry, settings, vault, startupProblems } = current;
      const weak = change.storeTokensWithWeakProtection;
      const changed = (panelId: string) => changes.changed(panelId);
      if (weak === false) {
        // Copies first, setting after: if the copies cannot be deleted the setting stays on, so
        // "off" never stands beside weak copies on disk, and a retry finishes the job. Meanwhile
        // the vault makes no new weak copy, until the setting is written or the change failed.
        try {
          const inMemory = await vault.removeWeakCopies();
          // One change for all of them, made as the copies are gone (a change per panel would let calls in between).
          await attemptWrite(() => registry.updateMany(new Map(inMemory.map((panelId) => [panelId, { tokenStorage: 'memory' as const }]))));
          for (const panelId of inMemory) changed(panelId);
          await settings.update(change);
        } finally {
          vault.weakRemovalEnded();
        }
      } else {
        // The setting first: the vault reads it when it decides where tokens go.
        await settings.update(change);
        if (weak === true) {
          // `onSaved` runs at once after each save, before anything else can change the panel.
          await vault.saveHeldInMemory(now(), async (panelId, storage) => {
            await registry.update(panelId, { tokenStorage: storage });
            changed(panelId);
          });
        }
      }
      const status = { settings: settings.get(), tokenProtection: await vault.protection(), startupProblems };
      // Told once the change was made and answered; a refused one is never told.
      settingsChanges.changed(status.settings);
      return status;
    },

    async installUpdate() {
      if (!options.installUpdate?.())
        throw new PanelError('NOT_FOUND', 'No update is ready to install. Paneldeck looks for one every day.');
    },

    async currentSettings() {
      return (await state()).settings.get();
    },

    async loadProblem() {
      return (await state()).registry.loadProblem;
    },

    async migration() {
      return (await state()).registry.migration;
    },

    async flush() {
      for (const batcher of batched) batcher.flush();
      const { registry, vault, history, alerts } = await state();
      await Promise.all([history.flush(), alerts.flush()]);
      // The journals folded into their files: each file alone is complete after a quit.
      await Promise.all([registry.compact(), vault.compact(), history.compact(), alerts.compact()]);
    },
  };
}
