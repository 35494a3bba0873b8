import { type RefObject, useLayoutEffect, useState } from 'react';

/**
 * Where a scrolling element is scrolled to and how tall it shows, kept up to date on scroll and
 * resize: what a list that draws only the rows in view needs to know which rows those are.
 */
export function useScrollView(element: RefObject<HTMLElement | null>, initialHeight: number): { top: number; height: number } {
  const [view, setView] = useState({ top: 0, height: initialHeight });
  useLayoutEffect(() => {
    const current = element.current;
    if (!current) return;
    const measure = () => setView({ top: current.scrollTop, height: current.clientHeight });
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(current);
    current.addEventListener('scroll', measure, { passive: true });
    return () => {
      observer.disconnect();
      current.removeEventListener('scroll', measure);
    };
  }, [element]);
  return view;
}
