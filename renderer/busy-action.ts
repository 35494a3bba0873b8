import { useCallback, useRef, useState } from 'react';
import type { ErrorInfo } from '../shared/errors.ts';
import { failureInfo } from './panel-api.ts';

/**
 * One call to main at a time from a form or dialog: `busy` while it runs (a second one is
 * ignored meanwhile), and its failure, in words for the operator, in `error`.
 */
export function useBusyAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ErrorInfo | null>(null);
  // A ref, not the state: two clicks in one frame both see the state as it was.
  const running = useRef(false);
  /** Whether the action succeeded. */
  const run = useCallback(async (action: () => Promise<void>): Promise<boolean> => {
    if (running.current) return false;
    running.current = true;
    setBusy(true);
    setError(null);
    try {
      await action();
      return true;
    } catch (caught) {
      setError(failureInfo(caught));
      return false;
    } finally {
      running.current = false;
      setBusy(false);
    }
  }, []);
  return { busy, error, setError, run };
}
