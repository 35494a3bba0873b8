import type { ErrorInfo } from '../../shared/contract/errors.ts';
import type { AppSettingsPatch } from '../../shared/schemas/schemas.ts';
import type { AppSettings } from '../../shared/types.ts';

/** The background-check settings as the Preferences form holds them: numbers as typed. */
export interface BackgroundDraft {
  checkIntervalMinutes: string;
  checkConcurrency: string;
  expiryWarningMinutes: string;
  requestTimeoutSeconds: string;
  notifyBeforeExpiry: boolean;
  /** The alerts' settings ride on the same draft: the disk threshold as typed, and which alerts notify. */
  diskAlertPercent: string;
  certificateAlertDays: string;
  notifyServiceDown: boolean;
  notifyDiskFull: boolean;
  notifyUnreachable: boolean;
}

const NUMBERS = [
  'checkIntervalMinutes',
  'checkConcurrency',
  'expiryWarningMinutes',
  'requestTimeoutSeconds',
  'diskAlertPercent',
  'certificateAlertDays',
] as const;
const SWITCHES = ['notifyBeforeExpiry', 'notifyServiceDown', 'notifyDiskFull', 'notifyUnreachable'] as const;

export type BackgroundField = keyof BackgroundDraft;

export function backgroundDraft(settings: AppSettings): BackgroundDraft {
  return {
    checkIntervalMinutes: String(settings.checkIntervalMinutes),
    checkConcurrency: String(settings.checkConcurrency),
    expiryWarningMinutes: String(settings.expiryWarningMinutes),
    requestTimeoutSeconds: String(settings.requestTimeoutSeconds),
    notifyBeforeExpiry: settings.notifyBeforeExpiry,
    diskAlertPercent: String(settings.diskAlertPercent),
    certificateAlertDays: String(settings.certificateAlertDays),
    notifyServiceDown: settings.notifyServiceDown,
    notifyDiskFull: settings.notifyDiskFull,
    notifyUnreachable: settings.notifyUnreachable,
  };
}

/**
 * Only what the operator changed. A number field that is empty or not a number goes as NaN, so
 * main's check refuses it with that field's message rather than the window guessing a value.
 */
export function backgroundPatch(settings: AppSettings, draft: BackgroundDraft): AppSettingsPatch {
  const patch: AppSettingsPatch = {};
  for (const key of NUMBERS) {
    const text = draft[key].trim();
    const value = text === '' ? Number.NaN : Number(text);
    if (!Object.is(value, settings[key])) patch[key] = value;
  }
  for (const key of SWITCHES) if (draft[key] !== settings[key]) patch[key] = draft[key];
  return patch;
}

/** Main's messages start with the setting's name (shared/schemas/schemas.ts): each is shown at its field. */
const fieldNames: readonly [RegExp, BackgroundField][] = [
  [/^check interval\b/i, 'checkIntervalMinutes'],
  [/^checks at once\b/i, 'checkConcurrency'],
  [/^warning before expiry\b/i, 'expiryWarningMinutes'],
  [/^request timeout\b/i, 'requestTimeoutSeconds'],
  [/^notify before expiry\b/i, 'notifyBeforeExpiry'],
  [/^disk alert threshold\b/i, 'diskAlertPercent'],
  [/^certificate alert\b/i, 'certificateAlertDays'],
  [/^notify when a service\b/i, 'notifyServiceDown'],
  [/^notify when a disk\b/i, 'notifyDiskFull'],
  [/^notify when a panel\b/i, 'notifyUnreachable'],
];

/** The field an error belongs under, or null for one about the save as a whole. */
export function backgroundFieldForError(error: ErrorInfo): BackgroundField | null {
  if (error.code !== 'INVALID_INPUT') return null;
  return fieldNames.find(([pattern]) => pattern.test(error.message))?.[1] ?? null;
}
