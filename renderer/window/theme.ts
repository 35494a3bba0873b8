import { useEffect } from 'react';
import type { Theme } from '../../shared/types.ts';

const darkQuery = () => window.matchMedia('(prefers-color-scheme: dark)');

/** Puts `light` or `dark` on the page's root, where the style sheet reads it. */
export function applyTheme(theme: Theme): void {
  const dark = theme === 'dark' || (theme === 'system' && darkQuery().matches);
  document.documentElement.dataset.theme = dark ? 'dark' : 'light';
}

/** Keeps the page in the operator's theme, following the system while the theme is `system`. */
export function useTheme(theme: Theme): void {
  useEffect(() => {
    applyTheme(theme);
    if (theme !== 'system') return;
    const query = darkQuery();
    const follow = () => applyTheme('system');
    query.addEventListener('change', follow);
    return () => query.removeEventListener('change', follow);
  }, [theme]);
}
