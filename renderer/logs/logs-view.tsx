import { useDeferredValue, useEffect, useMemo, useState } from 'react';
import type { ErrorInfo } from '../../shared/contract/errors.ts';
import type { ServiceLogs, ServiceRef } from '../../shared/service-logs.ts';
import type { Panel } from '../../shared/types.ts';
import { useWindowContext } from '../window/app-context.tsx';
import { copyText } from '../ui/copy-text.ts';
import { failureInfo } from '../window/failure-info.ts';
import { appendLines, matchingLines } from './log-lines.ts';
import { LogLines } from './log-lines-view.tsx';
import { ServicePicker, useRememberedService } from './service-picker.tsx';
import { SearchField } from '../ui/search-field.tsx';

const LINE_COUNTS = [100, 1000, 10_000] as const;

/**
 * A service's runtime log: pick the service, read its last lines, follow it live, search, copy.
 * Main reads the panel's log socket with the token; the window sees lines only.
 */
export function LogsView({ panel }: { panel: Panel }) {
  const { api } = useWindowContext();
  const [count, setCount] = useState<number>(1000);
  const [shown, setShown] = useState<ServiceRef | null>(null);
  const [read, setRead] = useState<Pick<ServiceLogs, 'readAt' | 'truncated'> | null>(null);
  const [lines, setLines] = useState<readonly string[]>([]);
  const [reading, setReading] = useState(false);
  const [error, setError] = useState<ErrorInfo | null>(null);
  const [following, setFollowing] = useState(false);
  const [followEnd, setFollowEnd] = useState<ErrorInfo | null>(null);
  const [query, setQuery] = useState('');
  const [copied, setCopied] = useState('');

  const show = async (target: ServiceRef) => {
    setReading(true);
    setFollowing(false);
    try {
      const answer = await api.readServiceLogs(panel.id, { ...target, lines: count });
      setShown(target);
      setLines(answer.lines);
      setRead({ readAt: answer.readAt, truncated: answer.truncated });
      setError(null);
    } catch (caught) {
      setError(failureInfo(caught));
    } finally {
      setReading(false);
    }
  };

  // The service remembered for the panel is read when the tab opens, and when another is chosen from a service row.
  const choose = useRememberedService(panel.id, (target) => void show(target));

  // Following: lines come as events for this follow only; it stops when turned off or the tab goes.
  useEffect(() => {
    if (!following || !shown) return;
    let followId: string | null = null;
    let stopped = false;
    const early: { followId: string; lines: string[] }[] = [];
    setFollowEnd(null);
    const unsubscribe = api.onEvent((event) => {
      if (event.type === 'serviceLogLines') {
        if (followId === null) early.push(event);
        else if (event.followId === followId) setLines((kept) => appendLines(kept, event.lines));
      } else if (event.type === 'serviceLogEnded' && event.followId === followId) {
        setFollowing(false);
        setFollowEnd(event.error);
      }
    });
    api.followServiceLogs(panel.id, shown).then(
      (follow) => {
        if (stopped) return void api.stopFollowingServiceLogs(follow.followId);
        followId = follow.followId;
        for (const batch of early) if (batch.followId === followId) setLines((kept) => appendLines(kept, batch.lines));
      },
      (caught: unknown) => {
        setFollowing(false);
        setFollowEnd(failureInfo(caught));
      },
    );
    return () => {
      stopped = true;
      unsubscribe();
      if (followId !== null) void api.stopFollowingServiceLogs(followId).catch(() => undefined);
    };
  }, [api, panel.id, following, shown]);

  const shownQuery = useDeferredValue(query);
  const visible = useMemo(() => matchingLines(lines, shownQuery), [lines, shownQuery]);

  const copy = async () => {
    const ok = await copyText(visible.join('\n'));
    setCopied(ok ? `Copied ${visible.length.toLocaleString('en')} lines.` : 'The system refused the copy.');
  };

  return (
    <section className="logs-view" aria-label="Logs">
      <ServicePicker panelId={panel.id} busy={reading} submitLabel="Show log" busyLabel="Reading…" onPick={choose}>
        <label className="field">
          <span className="field-label">Last</span>
          <select value={count} onChange={(event) => setCount(Number(event.target.value))}>
            {LINE_COUNTS.map((value) => (
              <option key={value} value={value}>
                {value.toLocaleString('en')} lines
              </option>
            ))}
          </select>
        </label>
      </ServicePicker>
      {error && (
        <div className="notice notice-error" role="alert">
          <p>{error.message}</p>
        </div>
      )}
      {shown && read && (
        <>
          <div className="logs-toolbar">
            <label className="checkbox-label">
              <input type="checkbox" checked={following} onChange={(event) => setFollowing(event.target.checked)} />
              Follow
            </label>
            <SearchField label="Search the log" placeholder="Search the log" value={query} onSearch={setQuery} />
            <button type="button" onClick={() => void copy()} disabled={visible.length === 0}>
              Copy
            </button>
            <span className="muted" role="status">
              {visible.length === lines.length
                ? `${lines.length.toLocaleString('en')} lines`
                : `${visible.length.toLocaleString('en')} of ${lines.length.toLocaleString('en')} lines`}
              {read.truncated ? ' (older lines left out)' : ''} · {shown.projectName}/{shown.serviceName}, read{' '}
              {new Date(read.readAt).toLocaleTimeString()}
              {following ? ' · following' : ''}
            </span>
            <span className="muted">{copied}</span>
          </div>
          {followEnd && (
            <div className="notice notice-warning" role="alert">
              <p>Following stopped: {followEnd.message}</p>
            </div>
          )}
          <LogLines lines={visible} stickToEnd={following} label={`Log of ${shown.projectName}/${shown.serviceName}`} />
        </>
      )}
    </section>
  );
}
