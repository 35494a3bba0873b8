import { type ReactNode, useEffect, useSyncExternalStore } from 'react';
import { agoText } from '../../shared/durations.ts';
import { useNow } from '../window/app-context.tsx';
import type { ReadState, ReadStore } from '../window/panel-reads.ts';
import { madeOnce } from '../../shared/made-once.ts';

const dateTime = madeOnce(() => new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }));

/**
 * A tab's heading with when what it shows was read, and Refresh: the bar of every tab that shows
 * something read from the panel in the background, and the notice of a read that failed.
 */
export function ReadBar<T extends { readAt: string }>({
  id,
  title,
  state,
  what,
  onRefresh,
}: {
  id: string;
  title: string;
  state: ReadState<T>;
  /** What is read, in the messages' words ("the services"). */
  what: string;
  onRefresh(): void;
}) {
  const now = useNow();
  const { value, loading, error } = state;
  let status: ReactNode = '';
  if (loading) status = value ? `Refreshing; showing ${what} read ${agoText(Date.parse(value.readAt), now)}…` : `Reading ${what}…`;
  else if (value) {
    status = (
      <time dateTime={value.readAt} title={dateTime().format(new Date(value.readAt))}>
        {`${error ? 'Last read' : 'Read'} ${agoText(Date.parse(value.readAt), now)}`}
      </time>
    );
  }
  return (
    <>
      <div className="section-bar">
        <h2 id={id} tabIndex={-1}>
          {title}
        </h2>
        <span className="muted" role="status">
          {status}
        </span>
        <button type="button" onClick={onRefresh} disabled={loading}>
          {loading && <span className="spinner" aria-hidden="true" />}
          {loading ? 'Refreshing…' : 'Refresh'}
        </button>
      </div>
      {error && (
        <div className="notice notice-error" role="alert">
          <p className="notice-title">{value ? `Could not refresh ${what}; what shows is from the last read` : `Could not read ${what}`}</p>
          <p>{error.message}</p>
        </div>
      )}
    </>
  );
}

/** What `store` holds of the panel, read again in the background when the tab opens. */
export function usePanelRead<T>(store: ReadStore<T>, panelId: string): ReadState<T> {
  const state = useSyncExternalStore(store.subscribe, () => store.state(panelId));
  useEffect(() => {
    void store.load(panelId);
  }, [store, panelId]);
  return state;
}
