import type { ReactNode } from 'react';
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
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  return (
    <ModalDialog title={title} onClose={onCancel}>
      {children}
      <div className="form-actions">
        {/* biome-ignore lint/a11y/noAutofocus: a confirmation opens on its safe choice */}
        <button type="button" autoFocus onClick={onCancel}>
          Cancel
        </button>
        <button type="button" className="button-danger" disabled={busy || confirmDisabled} onClick={onConfirm}>
          {confirmLabel}
        </button>
      </div>
    </ModalDialog>
  );
}
