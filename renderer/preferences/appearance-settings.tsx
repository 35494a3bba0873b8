import { THEMES, type Theme } from '../../shared/types.ts';
import type { PreferencesSectionProps } from './background-checks.tsx';
import { TextField } from '../ui/text-field.tsx';

const THEME_NAMES: Record<Theme, string> = { system: 'As the system', light: 'Light', dark: 'Dark' };

/** The Preferences section for the window's colours and the email offered for new panels; the dialog saves it. */
export function AppearanceSettings({ draft, onEdit, fieldError }: PreferencesSectionProps) {
  return (
    <section className="preferences-section" aria-labelledby="appearance-title">
      <h3 id="appearance-title">Appearance and log in</h3>
      <div className="preferences-grid">
        <label className="field">
          <span className="field-label">Theme</span>
          <select name="theme" value={draft.theme} onChange={(event) => onEdit('theme', event.target.value as Theme)}>
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
          value={draft.defaultEmail}
          onChange={(event) => onEdit('defaultEmail', event.target.value)}
          hint="Filled in when you log in to a panel for the first time."
          error={fieldError('defaultEmail')}
        />
      </div>
    </section>
  );
}
