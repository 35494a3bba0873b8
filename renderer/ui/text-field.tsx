import { useId, type ComponentPropsWithRef, type ReactNode } from 'react';

interface TextFieldProps extends ComponentPropsWithRef<'input'> {
  label: string;
  hint?: string;
  error?: string | null;
  /** Values offered as the operator types (the groups in use): a datalist the input names. */
  suggestions?: readonly string[];
  /** What acts on the field (a button), beside the input. */
  action?: ReactNode;
}

/** A labelled input whose hint and error are announced with it. */
export function TextField({ label, hint, error, suggestions, action, ...input }: TextFieldProps) {
  const id = useId();
  const described = [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(' ');
  const field = (
    <input
      id={id}
      type="text"
      spellCheck={false}
      list={suggestions ? `${id}-suggestions` : undefined}
      {...input}
      aria-invalid={error ? true : undefined}
      aria-describedby={described || undefined}
    />
  );
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      {action ? (
        <div className="field-row">
          {field}
          {action}
        </div>
      ) : (
        field
      )}
      {suggestions && (
        <datalist id={`${id}-suggestions`}>
          {suggestions.map((value) => (
            <option key={value} value={value} />
          ))}
        </datalist>
      )}
      {error && (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      )}
      {hint && (
        <p id={`${id}-hint`} className="field-hint">
          {hint}
        </p>
      )}
    </div>
  );
}
