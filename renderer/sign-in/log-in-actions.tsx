/** The buttons under a log in form: the other way to sign in, Cancel for a log in again, and the submit button. */
export function LogInActions({
  busy,
  submitLabel,
  busyLabel,
  switchLabel,
  onSwitch,
  onCancel,
}: {
  busy: boolean;
  submitLabel: string;
  busyLabel: string;
  /** The other way to sign in ("Use an API token instead"). */
  switchLabel: string;
  onSwitch(): void;
  onCancel?: (() => void) | undefined;
}) {
  return (
    <div className="form-actions">
      <button type="button" className="button-link" onClick={onSwitch} disabled={busy}>
        {switchLabel}
      </button>
      {onCancel && (
        <button type="button" onClick={onCancel} disabled={busy}>
          Cancel
        </button>
      )}
      <button type="submit" className="button-primary" disabled={busy}>
        {busy ? (
          <>
            <span className="spinner" aria-hidden="true" /> {busyLabel}
          </>
        ) : (
          submitLabel
        )}
      </button>
    </div>
  );
}
