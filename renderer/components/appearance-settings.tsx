import { useState, type FormEvent } from 'react';
import type { AppSettingsPatch } from '../../shared/schemas.ts';
import { THEMES, type AppStatus, type Theme } from '../../shared/types.ts';
import { useSettingsSave } from '../settings-save.ts';
import { TextField } from './text-field.tsx';
import { SaveBar } from './save-bar.tsx';

const THEME_NAMES: Record<Theme, string> = { system: 'As the system', light: 'Light', dark: 'Dark' };

/** The Preferences section for the window's colours and the email offered for new panels. */
export function AppearanceSettings({ status }: { status: AppStatus }) {
  const [theme, setTheme] = useState<Theme>(status.settings.theme);
  const [email, setEmail] = useState(status.settings.defaultEmail ?? '');
  const { busy, error, saved, edited, save: saveSettings } = useSettingsSave();
  const patch: AppSettingsPatch = {};
  if (theme !== status.settings.theme) patch.theme = theme;
  if ((email.trim() || null) !== status.settings.defaultEmail) patch.defaultEmail = email;
  const changed = Object.keys(patch).length > 0;
  const emailError = error?.code === 'INVALID_INPUT' && /^default email/i.test(error.message);

  const save = (event: FormEvent) => {
    event.preventDefault();
    void saveSettings(patch, (next) => setEmail(next.settings.defaultEmail ?? ''));
  };

  return (
    <section className="preferences-section" aria-labelledby="appearance-title">
      <h3 id="appearance-title">Appearance and log in</h3>
      <form className="preferences-form" onSubmit={save} noValidate aria-busy={busy}>
        <div className="preferences-grid">
          <label className="field">
            <span className="field-label">Theme</span>
            <select
              name="theme"
              value={theme}
              onChange={(event) => {
                setTheme(event.target.value as Theme);
                edited();
              }}
            >
              {THEMES.map((value) => (
                <option key={value} value={value}>
                  {THEME_NAMES[value]}
                </option>
              ))}
            </select>
          </label>
          <TextField
            label="Default email"
            name="defaultEmail"
            type="email"
            autoComplete="email"
            value={email}
            onChange={(event) => {
              setEmail(event.target.value);
              edited();
            }}
            hint="Filled in when you log in to a panel for the first time."
            error={emailError ? error?.message : null}
          />
        </div>
        <SaveBar
          error={error && !emailError ? error.message : null}
          saved={saved}
          disabled={busy || !changed}
          label="Save appearance and log in"
        />
      </form>
    </section>
  );
}
