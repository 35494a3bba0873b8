import { SETTING_LIMITS } from '../../shared/settings.ts';
import type { PreferencesSectionProps } from './background-checks.tsx';
import { TextField } from '../ui/text-field.tsx';

/** Which alerts are also system notifications; the session's end has its own switch under Background checks. */
const SWITCHES = [
  ['notifyServiceDown', 'A service goes down'],
  ['notifyDiskFull', 'A disk passes the threshold'],
  ['notifyUnreachable', 'A panel stops answering'],
] as const;

/** The Preferences section for alerts: the disk and certificate thresholds, and which alerts notify. The dialog saves it. */
export function AlertSettings({ draft, onEdit, fieldError }: PreferencesSectionProps) {
  const { min, max } = SETTING_LIMITS.diskAlertPercent;
  const days = SETTING_LIMITS.certificateAlertDays;
  return (
    <section className="preferences-section" aria-labelledby="alert-settings-title">
      <h3 id="alert-settings-title">Alerts</h3>
      <div className="preferences-grid">
        <TextField
          label="Disk alert threshold"
          name="diskAlertPercent"
          type="number"
          inputMode="numeric"
          min={min}
          max={max}
          step={1}
          value={draft.diskAlertPercent}
          onChange={(event) => onEdit('diskAlertPercent', event.target.value)}
          hint={`Percent of a panel's disk used, ${min} to ${max}: passing it raises an alert.`}
          error={fieldError('diskAlertPercent')}
        />
        <TextField
          label="Certificate alert"
          name="certificateAlertDays"
          type="number"
          inputMode="numeric"
          min={days.min}
          max={days.max}
          step={1}
          value={draft.certificateAlertDays}
          onChange={(event) => onEdit('certificateAlertDays', event.target.value)}
          hint={`Days left, ${days.min} to ${days.max}: a website's certificate this close to its end raises an alert.`}
          error={fieldError('certificateAlertDays')}
        />
      </div>
      <fieldset className="alert-switches">
        <legend>System notification when</legend>
        {SWITCHES.map(([name, label]) => (
          <label key={name} className="checkbox">
            <input
              type="checkbox"
              name={name}
              checked={draft[name]}
              onChange={(event) => onEdit(name, event.target.checked)}
              aria-invalid={fieldError(name) ? true : undefined}
            />
            {label}
          </label>
        ))}
      </fieldset>
      <p className="muted">Every alert is listed in Alerts (View menu) whatever is chosen here.</p>
    </section>
  );
}
