import { type ReactNode, useEffect, useRef, useState } from 'react';
import { ModalDialog } from './modal-dialog.tsx';
import { TextField } from './text-field.tsx';

/** A name the operator types before the action can be chosen (a write to a production panel). */
export interface TypedName {
  /** What must be typed; spaces around it do not count. */
  expected: string;
  /** Why a name must be typed, and which (a red panel's warning). */
  notice: ReactNode;
  label: string;
  name: string;
}

interface ConfirmDialogProps {
  title: string;
  /** What the action does, for the operator to weigh. */
  effect: ReactNode;
  /** Whom it acts on, when the question lists them (a list that may scroll inside). */
  targets?: ReactNode;
  /** What else there is to weigh, under the targets: how it is sent, the input it sends. */
  details?: ReactNode;
  /** The name to type first, when the action asks for one. */
  typedName?: TypedName | null;
  /** The danger button's words, which name the action ("Remove 5 panels"). */
  confirmLabel: string;
  busy?: boolean;
  /** The dialog's own class: its layout (a long list that scrolls inside, the buttons in view). */
  className?: string;
  onConfirm(): void;
  onCancel(): void;
}

/**
 * The one question before a destructive action: its title, what it does, whom it acts on, the name
 * to type when one is asked (Enter confirms once it matches), and the two buttons: Cancel has the
 * focus, the action is the danger button. Each caller gives its own words.
 */
export function ConfirmDialog({
  title,
  effect,
  targets,
  details,
  typedName = null,
  confirmLabel,
  busy = false,
  className,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  const [typed, setTyped] = useState('');
  const matches = typedName === null || typed.trim() === typedName.expected;
  // After the dialog opened (its effect runs first): opening focuses its first focusable part, which
  // may be a list that scrolls; a confirmation opens on its safe choice.
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => cancel.current?.focus(), []);
  return (
    <ModalDialog title={title} onClose={onCancel} className={className}>
      <div className="dialog-body">
        {effect}
        {targets}
        {details}
      </div>
      {typedName && (
        <>
          <p className="notice notice-warning">{typedName.notice}</p>
          <TextField
            label={typedName.label}
            name={typedName.name}
            autoComplete="off"
            value={typed}
            onChange={(event) => setTyped(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter' && matches && !busy) onConfirm();
            }}
          />
        </>
      )}
      <div className="form-actions">
        <button ref={cancel} type="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="button" className="button-danger" disabled={busy || !matches} onClick={onConfirm}>
          {confirmLabel}
        </button>
      </div>
    </ModalDialog>
  );
}
