import { useState, type FormEvent } from 'react';
import type { AppStatus } from '../../shared/types.ts';
import { backgroundDraft, backgroundFieldForError, backgroundPatch, type BackgroundDraft } from '../background-settings.ts';
import { useSettingsSave } from '../settings-save.ts';
import { TextField } from './text-field.tsx';
import { SaveBar } from './save-bar.tsx';
import { SETTING_LIMITS, type NumericSetting } from '../../shared/settings.ts';

/** The Preferences section for background checks and expiry warnings, saved together. */
export function BackgroundChecks({ status }: { status: AppStatus }) {
  const [draft, setDraft] = useState(() => backgroundDraft(status.settings));
  const { busy, error, saved, edited, save: saveSettings } = useSettingsSave();
  const patch = backgroundPatch(status.settings, draft);
  const changed = Object.keys(patch).length > 0;
  const field = error ? backgroundFieldForError(error) : null;
  const fieldError = (name: keyof BackgroundDraft) => (field === name ? (error?.message ?? null) : null);
  const edit = <K extends keyof BackgroundDraft>(key: K, value: BackgroundDraft[K]) => {
    setDraft((current) => ({ ...current, [key]: value }));
    edited();
  };

  const save = (event: FormEvent) => {
    event.preventDefault();
    void saveSettings(patch, (next) => setDraft(backgroundDraft(next.settings)));
  };

  const number = (name: NumericSetting, label: string, hint: string) => (
    <TextField
      label={label}
      name={name}
      type="number"
      inputMode="numeric"
      min={SETTING_LIMITS[name].min}
      max={SETTING_LIMITS[name].max}
      step={1}
      value={draft[name]}
      onChange={(event) => edit(name, event.target.value)}
      hint={hint}
      error={fieldError(name)}
    />
  );

  return (
    <section className="preferences-section" aria-labelledby="background-checks-title">
      <h3 id="background-checks-title">Background checks</h3>
      <form className="preferences-form" onSubmit={save} noValidate aria-busy={busy}>
        <div className="preferences-grid">
          {number('checkIntervalMinutes', 'Check interval', 'Minutes between checks of each signed-in panel; 0 turns them off.')}
          {number(
            'checkConcurrency',
            'Checks at once',
            `Session reads in flight at most, ${SETTING_LIMITS.checkConcurrency.min} to ${SETTING_LIMITS.checkConcurrency.max}.`,
          )}
          {number('expiryWarningMinutes', 'Expiry warning', 'Minutes before a session ends; 0 turns it off.')}
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
            onChange={(event) => edit('notifyBeforeExpiry', event.target.checked)}
            aria-invalid={field === 'notifyBeforeExpiry' || undefined}
          />
          Also warn with a system notification
        </label>
        <SaveBar
          error={error && (field === null || field === 'notifyBeforeExpiry') ? error.message : null}
          saved={saved}
          disabled={busy || !changed}
          label="Save background checks"
        />
      </form>
    </section>
  );
}
