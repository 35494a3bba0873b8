import { SETTING_LIMITS, type NumericSetting } from '../../shared/settings.ts';
import type { PreferencesDraft, PreferencesField } from './preferences-draft.ts';
import { TextField } from '../ui/text-field.tsx';

interface PreferencesSectionProps {
  draft: PreferencesDraft;
  onEdit<K extends keyof PreferencesDraft>(key: K, value: PreferencesDraft[K]): void;
  /** Main's refusal of the field, to show under it; null when it has none. */
  fieldError(field: PreferencesField): string | null;
}

export type { PreferencesSectionProps };

/** The Preferences section for background checks and expiry warnings; the dialog saves it. */
export function BackgroundChecks({ draft, onEdit, fieldError }: PreferencesSectionProps) {
  const number = (name: Exclude<NumericSetting, 'diskAlertPercent'>, label: string, hint: string) => (
    <TextField
      label={label}
      name={name}
      type="number"
      inputMode="numeric"
      min={SETTING_LIMITS[name].min}
      max={SETTING_LIMITS[name].max}
      step={1}
      value={draft[name]}
      onChange={(event) => onEdit(name, event.target.value)}
      hint={hint}
      error={fieldError(name)}
    />
  );

  return (
    <section className="preferences-section" aria-labelledby="background-checks-title">
      <h3 id="background-checks-title">Background checks</h3>
      <div className="preferences-grid">
        {number('checkIntervalMinutes', 'Check interval', 'Minutes between checks of each signed-in panel; 0 turns them off.')}
        {number(
          'checkConcurrency',
          'Checks at once',
          `Session reads in flight at most, ${SETTING_LIMITS.checkConcurrency.min} to ${SETTING_LIMITS.checkConcurrency.max}.`,
        )}
        {number(
          'expiryWarningMinutes',
          'Expiry warning',
          `Minutes before a session ends, up to ${SETTING_LIMITS.expiryWarningMinutes.max.toLocaleString('en')} (seven days); 0 turns it off.`,
        )}
        {number(
          'requestTimeoutSeconds',
          'Request timeout',
          `Seconds one request to a panel may take, ${SETTING_LIMITS.requestTimeoutSeconds.min} to ${SETTING_LIMITS.requestTimeoutSeconds.max}.`,
        )}
      </div>
      <label className="checkbox">
        <input
          type="checkbox"
          name="notifyBeforeExpiry"
          checked={draft.notifyBeforeExpiry}
          onChange={(event) => onEdit('notifyBeforeExpiry', event.target.checked)}
          aria-invalid={fieldError('notifyBeforeExpiry') ? true : undefined}
        />
        Also warn with a system notification
      </label>
    </section>
  );
}
