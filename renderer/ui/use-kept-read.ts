import { useEffect, useState } from 'react';
import type { ErrorInfo } from '../../shared/contract/errors.ts';
import { failureInfo } from '../window/failure-info.ts';

/** A fleet-wide read main keeps a day (certificates, backups), as a view holds it. */
export interface KeptRead<T> {
  /** The last answer; kept under the failure of a refresh. Null until the first one. */
  value: T | null;
  error: ErrorInfo | null;
  reading: boolean;
  /** Reads again now (`refresh: true`): main reads the fleet. */
  refresh(): void;
  /** Asks again as last asked (after a failure). */
  retry(): void;
}

/**
 * Reads once on mounting (main's kept read, no request when fresh) and again on `refresh`; an
 * answer that comes after a newer ask, or after the view went, is dropped.
 */
export function useKeptRead<T>(read: (refresh: boolean) => Promise<T>): KeptRead<T> {
  const [loaded, setLoaded] = useState<{ value: T | null; error: ErrorInfo | null; reading: boolean }>({
    value: null,
    error: null,
    reading: true,
  });
  const [asked, setAsked] = useState({ count: 0, refresh: false });
  // biome-ignore lint/correctness/useExhaustiveDependencies: read is the view's call of main, asked again only when `asked` changes.
  useEffect(() => {
    const reading = { stale: false };
    setLoaded((before) => ({ ...before, error: null, reading: true }));
    void read(asked.refresh)
      .then((value) => ({ value, error: null, reading: false }))
      .catch((caught: unknown) => ({ error: failureInfo(caught), reading: false }))
      .then((next) => reading.stale || setLoaded((before) => ({ ...before, ...next })));
    return () => {
      reading.stale = true;
    };
  }, [asked]);
  return {
    ...loaded,
    refresh: () => setAsked(({ count }) => ({ count: count + 1, refresh: true })),
    retry: () => setAsked(({ count, refresh }) => ({ count: count + 1, refresh })),
  };
}
