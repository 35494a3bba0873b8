import type { ReactNode } from 'react';
import type { ErrorInfo } from '../../shared/contract/errors.ts';

interface ReadStatesProps {
  /** Why the read failed, with Try again; null when it did not. */
  error: ErrorInfo | null;
  onRetry(): void;
  /** Shown while nothing has been read yet; null once something was. */
  reading: string | null;
  /** Shown when there is nothing to list (none at all, or none matching); null when there is. */
  empty: string | null;
  children: ReactNode;
}

/** A list read from main, in the states before it shows: failed (Try again), reading, empty; else the list. */
export function ReadStates({ error, onRetry, reading, empty, children }: ReadStatesProps) {
  if (error)
    return (
      <div className="notice notice-error" role="alert">
        <p>{error.message}</p>
        <button type="button" onClick={onRetry}>
          Try again
        </button>
      </div>
    );
  if (reading !== null)
    return (
      <p className="muted" role="status">
        {reading}
      </p>
    );
  if (empty !== null) return <p className="muted">{empty}</p>;
  return children;
}
