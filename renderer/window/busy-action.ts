import { useCallback, useRef, useState } from 'react';
import type { ErrorInfo } from '../../shared/contract/errors.ts';
import { failureInfo } from './failure-info.ts';

/** Turns a failure into what the form shows (null: nothing), and does what else it calls for (move the cursor). */
export type FailureShown = (failure: ErrorInfo) => ErrorInfo | null;

const showAsIs: FailureShown = (failure) => failure;

/**
 * One call to main at a time from a form, dialog or button: `busy` while it runs (a second one
 * is ignored meanwhile: a double click or a second Enter sends nothing twice), and its failure,
 * in words for the operator, in `error`. Every action of the window that waits on main goes
 * through this.
 */
export function useBusyAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ErrorInfo | null>(null);
  // A ref, not the state: two clicks in one frame both see the state as it was.
  const running = useRef(false);
  /** Whether the action ran and succeeded; false when it failed or another was still running. */
  const run = useCallback(async (action: () => Promise<void>, shown: FailureShown = showAsIs): Promise<boolean> => {
    if (running.current) return false;
    running.current = true;
    setBusy(true);
    setError(null);
    try {
      await action();
      return true;
    } catch (caught) {
      setError(shown(failureInfo(caught)));
      return false;
    } finally {
      running.current = false;
      setBusy(false);
    }
  }, []);
  return { busy, error, setError, run };
}
