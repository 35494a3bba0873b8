import type { ErrorInfo } from '../../shared/contract/errors.ts';
import type { AppSettingsPatch } from '../../shared/schemas/schemas.ts';
import type { AppSettings, Theme } from '../../shared/types.ts';
import {
  backgroundDraft,
  backgroundFieldForError,
  backgroundPatch,
  type BackgroundDraft,
  type BackgroundField,
} from './background-settings.ts';

/**
 * Everything the Preferences form holds as typed, saved together by its one Save (or Done): the
 * background checks, the theme and the default email. The weak-protection choice is not here: it
 * takes effect when clicked.
 */
export interface PreferencesDraft extends BackgroundDraft {
  theme: Theme;
  defaultEmail: string;
}

export type PreferencesField = BackgroundField | 'theme' | 'defaultEmail';

export function preferencesDraft(settings: AppSettings): PreferencesDraft {
  return { ...backgroundDraft(settings), theme: settings.theme, defaultEmail: settings.defaultEmail ?? '' };
}

/** Only what the operator changed (a value main refuses included, so main says why). */
export function preferencesPatch(settings: AppSettings, draft: PreferencesDraft): AppSettingsPatch {
  const patch = backgroundPatch(settings, draft);
  if (draft.theme !== settings.theme) patch.theme = draft.theme;
  if ((draft.defaultEmail.trim() || null) !== settings.defaultEmail) patch.defaultEmail = draft.defaultEmail;
  return patch;
}

/** The field an error belongs under, or null for one about the save as a whole. */
export function preferencesFieldForError(error: ErrorInfo): PreferencesField | null {
  if (error.code === 'INVALID_INPUT' && /^default email/i.test(error.message)) return 'defaultEmail';
  if (error.code === 'INVALID_INPUT' && /^theme\b/i.test(error.message)) return 'theme';
  return backgroundFieldForError(error);
}

const SETTING_WORDS: Readonly<Record<keyof AppSettingsPatch & PreferencesField, string>> = {
  checkIntervalMinutes: 'Check interval',
  checkConcurrency: 'Checks at once',
  expiryWarningMinutes: 'Expiry warning',
  requestTimeoutSeconds: 'Request timeout',
  notifyBeforeExpiry: 'System notification',
  diskAlertPercent: 'Disk alert threshold',
  certificateAlertDays: 'Certificate alert',
  notifyServiceDown: 'Service down notification',
  notifyDiskFull: 'Disk notification',
  notifyUnreachable: 'Unreachable notification',
  theme: 'Theme',
  defaultEmail: 'Default email',
};

/** "Default email and Request timeout": the changed settings by their labels, for the question on Esc. */
export function changedSettingsText(patch: AppSettingsPatch): string {
  const names = (Object.keys(SETTING_WORDS) as (keyof typeof SETTING_WORDS)[])
    .filter((key) => key in patch)
    .map((key) => SETTING_WORDS[key]);
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}
