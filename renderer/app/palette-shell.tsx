import { useEffect, useRef } from 'react';
import { ModalDialog } from '../ui/modal-dialog.tsx';

/**
 * What was typed into the palette before its code arrived (it loads when first opened): the text,
 * and whether Enter was pressed. The palette starts from it, so Ctrl+K and typing at once loses
 * nothing. One for each opening of the palette.
 */
export interface EarlyInput {
  query: string;
  enter: boolean;
}

export const PALETTE_TITLE = 'Command palette';
export const PALETTE_PLACEHOLDER = 'Jump to a panel or run a command…';

/**
 * The palette as it looks while its code loads: its dialog and its input, the cursor in it, taking
 * what is typed for the palette to pick up. It lists nothing yet; the palette replaces it in place.
 */
export function PaletteShell({ early, onClose }: { early: EarlyInput; onClose(): void }) {
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.focus(), []);
  return (
    <ModalDialog title={PALETTE_TITLE} onClose={onClose} className="palette-dialog">
      <input
        ref={input}
        className="palette-early-input"
        aria-label="Jump to a panel or run a command"
        placeholder={PALETTE_PLACEHOLDER}
        defaultValue={early.query}
        onChange={(event) => {
          early.query = event.currentTarget.value;
        }}
        onKeyDown={(event) => {
          if (event.key !== 'Enter') return;
          event.preventDefault();
          early.enter = true;
        }}
      />
    </ModalDialog>
  );
}
