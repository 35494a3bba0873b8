import type { ReactNode } from 'react';
import { TextField } from './text-field.tsx';

interface TypedConfirmationProps {
  /** Why a name must be typed, and which (a red panel's warning). */
  notice: ReactNode;
  label: string;
  name: string;
  typed: string;
  onTyped(typed: string): void;
  /** Enter confirms once what was typed matches. */
  matches: boolean;
  onConfirm(): void;
}

/** The field of a confirmation that must be typed (a production panel's write): its warning, then the name, Enter to confirm. */
export function TypedConfirmation({ notice, label, name, typed, onTyped, matches, onConfirm }: TypedConfirmationProps) {
  return (
    <>
      <p className="notice notice-warning">{notice}</p>
      <TextField
        label={label}
        name={name}
        autoComplete="off"
        value={typed}
        onChange={(event) => onTyped(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && matches) onConfirm();
        }}
      />
    </>
  );
}
