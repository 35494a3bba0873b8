import { defaultRangeExtractor, type Range, type Virtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useRef } from 'react';

/**
 * What the list and table layouts share about the entry the keyboard is on: it is always
 * in the page (aria-activedescendant names it, even scrolled out of view), and it is brought into
 * view when it changes (a key, a notification, a new panel), not when other rows move around it:
 * the operator may be scrolling elsewhere.
 */
export function useActiveRange(activeIndex: number): (range: Range) => number[] {
  return useCallback(
    (range: Range) => {
      const indexes = defaultRangeExtractor(range);
      return activeIndex >= 0 && !indexes.includes(activeIndex) ? [...indexes, activeIndex].sort((a, b) => a - b) : indexes;
    },
    [activeIndex],
  );
}

export function useScrollToActive(virtualizer: Virtualizer<HTMLDivElement, Element>, activeKey: string | null, activeIndex: number): void {
  const scrolledTo = useRef<string | null>(null);
  useEffect(() => {
    if (activeIndex < 0 || scrolledTo.current === activeKey) return;
    scrolledTo.current = activeKey;
    virtualizer.scrollToIndex(activeIndex, { align: 'auto' });
  }, [activeKey, activeIndex, virtualizer]);
}
