import { type ReactNode, useEffect, useRef } from 'react';
import { ModalDialog } from './modal-dialog.tsx';

interface ConfirmDialogProps {
  title: string;
  /** What the action does, for the operator to weigh. */
  children: ReactNode;
  /** The danger button's words, which name the action ("Remove 5 panels"). */
  confirmLabel: string;
  busy?: boolean;
  /** The action cannot be chosen yet (a production panel's typed name does not match). */
  confirmDisabled?: boolean;
  /** The dialog's own class: its layout (a long list that scrolls inside). */
  className?: string;
  onConfirm(): void;
  onCancel(): void;
}

/** A question before a destructive action: Cancel has the focus, the action is the danger button. */
export function ConfirmDialog({
  title,
  children,
  confirmLabel,
  busy = false,
  confirmDisabled = false,
  className,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  // After the dialog opened (its effect runs first): opening focuses its first focusable part, which
  // may be a list that scrolls; a confirmation opens on its safe choice.
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => cancel.current?.focus(), []);
  return (
    <ModalDialog title={title} onClose={onCancel} className={className}>
      {children}
      <div className="form-actions">
        <button ref={cancel} type="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="button" className="button-danger" disabled={busy || confirmDisabled} onClick={onConfirm}>
          {confirmLabel}
        </button>
      </div>
    </ModalDialog>
  );
}
