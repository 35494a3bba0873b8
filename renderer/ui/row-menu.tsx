import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
/** One item of a row menu: what it runs, its words, a line above it, red for danger, or greyed out. */
export interface MenuEntry<Id extends string> {
  command: Id;
  label: string;
  separated?: boolean;
  danger?: boolean;
  /** Shown but not run: said as unavailable (aria-disabled), still reached by the arrows. */
  disabled?: boolean;
}

interface RowMenuProps<Id extends string> {
  /** Where it opens, in window coordinates; moved in when it would leave the window. */
  at: { x: number; y: number };
  /** Names the menu for a screen reader: the panel, or "5 panels". */
  label: string;
  items: readonly MenuEntry<Id>[];
  onRun(command: Id): void;
  onClose(): void;
}

/**
 * The row menu: a WAI-ARIA menu drawn in the page. Up/Down/Home/End move, Enter or Space runs,
 * Esc or Tab closes, as does a click elsewhere; focus then goes back where it was (the list).
 */
export function RowMenu<Id extends string>({ at, label, items, onRun, onClose }: RowMenuProps<Id>) {
  const menu = useRef<HTMLDivElement>(null);
  const [position, setPosition] = useState(at);
  const [active, setActive] = useState(0);
  // The newest handler, for listeners added once when the menu opens.
  const close = useRef(onClose);
  close.current = onClose;

  // Measured before it is painted: a menu opened near the bottom or the right edge opens inward.
  useLayoutEffect(() => {
    const box = menu.current?.getBoundingClientRect();
    if (!box) return;
    const margin = 8;
    setPosition({
      x: Math.max(margin, Math.min(at.x, window.innerWidth - box.width - margin)),
      y: Math.max(margin, Math.min(at.y, window.innerHeight - box.height - margin)),
    });
  }, [at]);

  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const outside = (event: MouseEvent) => {
      if (!menu.current?.contains(event.target as Node)) close.current();
    };
    const blurred = () => close.current();
    document.addEventListener('mousedown', outside);
    window.addEventListener('blur', blurred);
    return () => {
      document.removeEventListener('mousedown', outside);
      window.removeEventListener('blur', blurred);
      if (opener?.isConnected) opener.focus();
    };
  }, []);
  useEffect(() => {
    menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]')[active]?.focus();
  }, [active]);

  const choose = (item: MenuEntry<Id>) => {
    if (item.disabled) return;
    onClose();
    onRun(item.command);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const moves: Partial<Record<string, number>> = { ArrowDown: active + 1, ArrowUp: active - 1, Home: 0, End: items.length - 1 };
    const move = moves[event.key];
    if (move !== undefined) {
      event.preventDefault();
      setActive((move + items.length) % items.length);
    } else if (event.key === 'Escape' || event.key === 'Tab') {
      event.preventDefault();
      event.stopPropagation();
      onClose();
    } else if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      choose(items[active]!);
    }
  };

  return (
    <div ref={menu} className="row-menu" role="menu" aria-label={label} style={{ left: position.x, top: position.y }} onKeyDown={onKeyDown}>
      {items.map((item, index) => (
        // biome-ignore lint/a11y/useKeyWithClickEvents: the menu takes the keyboard for all its items (onKeyDown above)
        <div
          key={item.command}
          role="menuitem"
          tabIndex={index === active ? 0 : -1}
          aria-disabled={item.disabled || undefined}
          className={`row-menu-item${item.separated ? ' separated' : ''}${item.danger ? ' danger' : ''}${item.disabled ? ' disabled' : ''}`}
          onMouseMove={() => index !== active && setActive(index)}
          onClick={() => choose(item)}
        >
          {item.label}
        </div>
      ))}
    </div>
  );
}
