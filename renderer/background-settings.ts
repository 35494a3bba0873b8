import type { ErrorInfo } from '../shared/errors.ts';
import type { AppSettingsPatch } from '../shared/schemas.ts';
import type { AppSettings } from '../shared/types.ts';

/** The background-check settings as the Preferences form holds them: numbers as typed. */
export interface BackgroundDraft {
  checkIntervalMinutes: string;
  checkConcurrency: string;
  expiryWarningMinutes: string;
  requestTimeoutSeconds: string;
  notifyBeforeExpiry: boolean;
}

export type BackgroundField = keyof BackgroundDraft;

export function backgroundDraft(settings: AppSettings): BackgroundDraft {
  return {
    checkIntervalMinutes: String(settings.checkIntervalMinutes),
    checkConcurrency: String(settings.checkConcurrency),
    expiryWarningMinutes: String(settings.expiryWarningMinutes),
    requestTimeoutSeconds: String(settings.requestTimeoutSeconds),
    notifyBeforeExpiry: settings.notifyBeforeExpiry,
  };
}

/**
 * Only what the operator changed. A number field that is empty or not a number goes as NaN, so
 * main's check refuses it with that field's message rather than the window guessing a value.
 */
export function backgroundPatch(settings: AppSettings, draft: BackgroundDraft): AppSettingsPatch {
  const patch: AppSettingsPatch = {};
  for (const key of ['checkIntervalMinutes', 'checkConcurrency', 'expiryWarningMinutes', 'requestTimeoutSeconds'] as const) {
    const text = draft[key].trim();
    const value = text === '' ? Number.NaN : Number(text);
    if (!Object.is(value, settings[key])) patch[key] = value;
  }
  if (draft.notifyBeforeExpiry !== settings.notifyBeforeExpiry) patch.notifyBeforeExpiry = draft.notifyBeforeExpiry;
  return patch;
}

/** Main's messages start with the setting's name (shared/schemas.ts): each is shown at its field. */
const fieldNames: readonly [RegExp, BackgroundField][] = [
  [/^check interval\b/i, 'checkIntervalMinutes'],
  [/^checks at once\b/i, 'checkConcurrency'],
  [/^warning before expiry\b/i, 'expiryWarningMinutes'],
  [/^request timeout\b/i, 'requestTimeoutSeconds'],
  [/^notify before expiry\b/i, 'notifyBeforeExpiry'],
];

/** The field an error belongs under, or null for one about the save as a whole. */
export function backgroundFieldForError(error: ErrorInfo): BackgroundField | null {
  if (error.code !== 'INVALID_INPUT') return null;
  return fieldNames.find(([pattern]) => pattern.test(error.message))?.[1] ?? null;
}
