import type { ComponentPropsWithRef } from 'react';

interface SearchFieldProps extends Omit<ComponentPropsWithRef<'input'>, 'type' | 'value' | 'onChange'> {
  /** What the field searches, for screen readers ("Search the log"). */
  label: string;
  value: string;
  onSearch(query: string): void;
}

/**
 * Every search box of the window: the query as typed, and Esc clears it while it holds text (an
 * empty box lets Esc reach what is around it, a dialog or the view, as before).
 */
export function SearchField({ label, value, onSearch, onKeyDown, ...input }: SearchFieldProps) {
  return (
    <input
      type="search"
      aria-label={label}
      spellCheck={false}
      {...input}
      value={value}
      onChange={(event) => onSearch(event.target.value)}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && value !== '') {
          event.preventDefault();
          onSearch('');
          return;
        }
        onKeyDown?.(event);
      }}
    />
  );
}
