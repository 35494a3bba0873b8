import { useId, type Ref } from 'react';
import { TWO_FACTOR_REQUIRED_MESSAGE } from '../../shared/contract/errors.ts';

interface CodeFieldProps {
  ref: Ref<HTMLInputElement>;
  value: string;
  onChange(value: string): void;
  disabled: boolean;
  /** Why the last code was not accepted; shown under the field and announced. */
  error: string | null;
}

/**
 * The second factor of a log in. Numeric keypad and one-time-code autofill (the platform can
 * offer the code from a message or a password manager); spaces are allowed as apps show them.
 */
export function CodeField({ ref, value, onChange, disabled, error }: CodeFieldProps) {
  const id = useId();
  const described = [error ? `${id}-error` : null, `${id}-hint`].filter(Boolean).join(' ');
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        Authentication code
      </label>
      <input
        ref={ref}
        id={id}
        type="text"
        name="code"
        inputMode="numeric"
        autoComplete="one-time-code"
        pattern="[0-9 ]*"
        maxLength={12}
        spellCheck={false}
        required
        value={value}
        onChange={(event) => onChange(event.target.value)}
        disabled={disabled}
        aria-invalid={error ? true : undefined}
        aria-describedby={described}
      />
      {error && (
        <p id={`${id}-error`} className="field-error" role="alert">
          {error}
        </p>
      )}
      <p id={`${id}-hint`} className="field-hint">
        This panel uses two-factor log in. {TWO_FACTOR_REQUIRED_MESSAGE}
      </p>
    </div>
  );
}
