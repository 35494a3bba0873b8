import { z } from 'zod';
import { DEFAULT_SETTINGS, MAX_COLLAPSED_GROUPS, SETTING_LIMITS, type NumericSetting } from '../../../shared/settings.ts';
import { storedTableLayoutFields } from '../../../shared/schemas/panel-list-schemas.ts';
import { LIST_SORTS, THEMES } from '../../../shared/types.ts';
import type { AppSettings, StartupProblem } from '../../../shared/types.ts';
import type { DocumentStore } from './document-store.ts';
import { copyAside, isEmptyDocument, readOrMoveAside, storageError } from './store-problems.ts';
import { WriteQueue } from './write-queue.ts';
import { isRecord } from '../../../shared/guards.ts';

const SETTINGS_VERSION = 1;

export { DEFAULT_SETTINGS };

const stored = (name: NumericSetting) =>
  z.number().int().min(SETTING_LIMITS[name].min).max(SETTING_LIMITS[name].max).default(DEFAULT_SETTINGS[name]);

// Settings added after the first format have defaults, so an older file still reads as format 1.
const settingsSchema = z.object({
  version: z.literal(SETTINGS_VERSION),
  storeTokensWithWeakProtection: z.boolean(),
  checkConcurrency: stored('checkConcurrency'),
  checkIntervalMinutes: stored('checkIntervalMinutes'),
  expiryWarningMinutes: stored('expiryWarningMinutes'),
  notifyBeforeExpiry: z.boolean().default(DEFAULT_SETTINGS.notifyBeforeExpiry),
  diskAlertPercent: stored('diskAlertPercent'),
  certificateAlertDays: stored('certificateAlertDays'),
  notifyServiceDown: z.boolean().default(DEFAULT_SETTINGS.notifyServiceDown),
  notifyDiskFull: z.boolean().default(DEFAULT_SETTINGS.notifyDiskFull),
  notifyUnreachable: z.boolean().default(DEFAULT_SETTINGS.notifyUnreachable),
  // How the panel list looked: damaged, it costs only the panel list's look, never the other settings.
  panelList: z
    .object({
      selectedPanelId: z.string().max(64).nullable(),
      sort: z.enum(LIST_SORTS),
      attentionOnly: z.boolean(),
      collapsedGroups: z.array(z.string().max(240)).max(MAX_COLLAPSED_GROUPS),
      ...storedTableLayoutFields,
    })
    .catch(() => ({ ...DEFAULT_SETTINGS.panelList }))
    .default(() => ({ ...DEFAULT_SETTINGS.panelList })),
  requestTimeoutSeconds: stored('requestTimeoutSeconds'),
  theme: z.enum(THEMES).catch(DEFAULT_SETTINGS.theme).default(DEFAULT_SETTINGS.theme),
  defaultEmail: z.string().max(320).nullable().catch(null).default(null),
});

/** The installation's settings in `settings.json`, written first and applied after, like the panel list. */
export class SettingsFile {
  readonly #store: DocumentStore;
  readonly #queue = new WriteQueue();
  #settings: AppSettings;
  readonly loadProblem: StartupProblem | null;

  constructor(store: DocumentStore, now: Date) {
    this.#store = store;
    const loaded = load(store, now);
    this.#settings = loaded.settings;
    this.loadProblem = loaded.problem;
  }

  get(): AppSettings {
    return { ...this.#settings };
  }

  /** Resolves with the settings once the change is on disk; queued, so that a change never undoes the one before it. */
  update(patch: Partial<AppSettings>): Promise<AppSettings> {
    return this.#queue.run(async () => {
      const next = { ...this.#settings, ...patch };
      try {
        // A few hundred bytes: always written whole.
        await this.#store.save(null, () => ({ version: SETTINGS_VERSION, ...next }));
      } catch (error) {
        throw storageError(`save the settings to ${this.#store.path}`, error);
      }
      this.#settings = next;
      return this.get();
    });
  }
}

function load(store: DocumentStore, now: Date): { settings: AppSettings; problem: StartupProblem | null } {
  const read = readOrMoveAside(store, now);
  const reset = (copyPath: string) => ({
    settings: { ...DEFAULT_SETTINGS },
    problem: {
      file: 'settings' as const,
      message:
        'The settings file could not be read, so the settings are back to their defaults (tokens are not stored with weak protection). The damaged file was kept.',
      copyPath,
    },
  });
  if (!read.ok) return reset(read.movedTo);
  if (isEmptyDocument(read.document)) return { settings: { ...DEFAULT_SETTINGS }, problem: null };
  const parsed = settingsSchema.safeParse(withPanelListKey(read.document));
  if (!parsed.success) return reset(copyAside(store.path, now));
  const { version: _version, ...settings } = parsed.data;
  return { settings, problem: null };
}

/**
 * The key the panel list's settings had until they were renamed `panelList`. An older file is read
 * with it and written back with the new key at its next save; the format stays 1 (an older
 * Paneldeck reading a newer file only finds its panel list at the defaults).
 */
const OLD_PANEL_LIST_KEY = 'boardView'; // retired-word: the key older settings.json files hold

function withPanelListKey(document: unknown): unknown {
  if (!isRecord(document) || !Object.hasOwn(document, OLD_PANEL_LIST_KEY) || Object.hasOwn(document, 'panelList')) return document;
  const { [OLD_PANEL_LIST_KEY]: panelList, ...rest } = document;
  return { ...rest, panelList };
}
