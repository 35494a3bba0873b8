import { useEffect, useId, useRef, type ReactNode } from 'react';

interface ModalDialogProps {
  title: string;
  /** Asked on close; false when what the dialog did put focus somewhere new (a new panel's form). */
  shouldRestoreFocus?: () => boolean;
  onClose(): void;
  children: ReactNode;
  className?: string;
}

/**
 * A native modal <dialog>: it keeps focus inside, closes on Esc and gives focus back to what
 * opened it (or, when that is gone, leaves focus to the page). Mounted means open.
 */
export function ModalDialog({ title, onClose, children, className, shouldRestoreFocus }: ModalDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  // Its own id: two dialogs at once (a confirmation over the palette) must not share a title.
  const titleId = useId();
  // Asked when the dialog closes: the newest one.
  const restoreFocus = useRef(shouldRestoreFocus);
  restoreFocus.current = shouldRestoreFocus;
  useEffect(() => {
    const element = dialog.current;
    // Unmounting removes the dialog before the browser could give focus back: do it here.
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (element && !element.open) element.showModal();
    return () => {
      element?.close();
      if (opener?.isConnected && (restoreFocus.current?.() ?? true)) opener.focus();
    };
  }, []);
  return (
    <dialog
      ref={dialog}
      className={`modal ${className ?? ''}`}
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <h2 id={titleId}>{title}</h2>
      {children}
    </dialog>
  );
}
