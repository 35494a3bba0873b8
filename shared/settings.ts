import type { AppSettings } from './types.ts';

/**
 * The settings' defaults and the bounds of the numeric ones, once: the settings file, the
 * contract's schema, the scheduler and the Preferences form all read them from here. Free of
 * zod, so the renderer can use it without the schema library.
 */

/** Safe defaults: nothing is stored under weak protection unless the operator says so. */
export const DEFAULT_SETTINGS: Readonly<AppSettings> = Object.freeze({
  storeTokensWithWeakProtection: false,
  checkConcurrency: 16,
  checkIntervalMinutes: 5,
  expiryWarningMinutes: 10,
  notifyBeforeExpiry: true,
  diskAlertPercent: 90,
  // Two weeks: room for a renewal that failed (Let's Encrypt renews at 30 days left) to be fixed by hand.
  certificateAlertDays: 14,
  notifyServiceDown: true,
  notifyDiskFull: true,
  notifyUnreachable: true,
  panelList: Object.freeze({ selectedPanelId: null, sort: 'name', attentionOnly: false, collapsedGroups: [] as string[] }),
  requestTimeoutSeconds: 15,
  theme: 'system',
  defaultEmail: null,
});

/** At most this many folded groups are remembered; more is not a view anyone keeps. */
export const MAX_COLLAPSED_GROUPS = 1000;

export type NumericSetting =
  | 'checkConcurrency'
  | 'checkIntervalMinutes'
  | 'expiryWarningMinutes'
  | 'requestTimeoutSeconds'
  | 'diskAlertPercent'
  | 'certificateAlertDays';

export const SETTING_LIMITS: Readonly<Record<NumericSetting, { min: number; max: number }>> = Object.freeze({
  checkConcurrency: { min: 1, max: 64 },
  checkIntervalMinutes: { min: 0, max: 1440 },
  // Seven days: an operator asks for the sessions ending this week, not only today.
  expiryWarningMinutes: { min: 0, max: 10_080 },
  requestTimeoutSeconds: { min: 3, max: 120 },
  diskAlertPercent: { min: 50, max: 99 },
  // Past 90 days every certificate of a 90-day issuer would be alerted.
  certificateAlertDays: { min: 1, max: 60 },
});
