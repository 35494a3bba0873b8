/** A form's end: what went wrong with the save as a whole, "Saved." once it is, and the save button. */
export function SaveBar({
  error,
  saved,
  disabled,
  label,
  primary = false,
}: {
  error: string | null;
  saved: boolean;
  disabled: boolean;
  label: string;
  primary?: boolean;
}) {
  return (
    <>
      {error !== null && (
        <div className="notice notice-error" role="alert">
          <p>{error}</p>
        </div>
      )}
      <div className="form-actions">
        <span className="muted" role="status">
          {saved ? 'Saved.' : ''}
        </span>
        <button type="submit" className={primary ? 'button-primary' : undefined} disabled={disabled}>
          {label}
        </button>
      </div>
    </>
  );
}
