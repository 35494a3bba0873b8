import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Deployment, DeploymentList, DeploymentLog, DeploymentStatus } from '../../shared/deployments.ts';
import type { ServiceRef } from '../../shared/service-logs.ts';
import type { Panel } from '../../shared/types.ts';
import { useNow, useWindowContext } from '../window/app-context.tsx';
import { copyText } from '../ui/copy-text.ts';
import { deploymentDuration, logRows, STATUS_MARKS, STATUS_WORDS } from './deployment-rows.ts';
import { failureInfo } from '../window/failure-info.ts';
import type { ReadState } from '../window/panel-reads.ts';
import { LogLines } from '../logs/views.tsx';
import { ReadBar } from '../ui/read-bar.tsx';
import { ServicePicker, useRememberedService } from '../logs/views.tsx';

/** How often a running build's log is read again. */
export const BUILD_LOG_POLL_MS = 2000;
/** How often the history is read again while any deployment in it runs: each row follows its build to its end. */
export const HISTORY_POLL_MS = 5000;

const NOTHING_READ: ReadState<never> = { value: null, loading: false, error: null };
const startedFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
const timeFormat = new Intl.DateTimeFormat(undefined, { timeStyle: 'medium' });

/**
 * A service's deployments: pick the service, see its history (read in main with the token), pick
 * one to read its build log, which follows a running build until it ends. While any deployment
 * listed runs, the history is read again every `HISTORY_POLL_MS` (a row must not say Running once
 * its build is done, the log open or not); the reads stop once none runs, at a failed read, or when
 * the tab goes. Everything is read in the background; a late answer for a service no longer shown
 * is dropped.
 */
export function DeploymentsView({ panel }: { panel: Panel }) {
  const { api } = useWindowContext();
  const [shown, setShown] = useState<ServiceRef | null>(null);
  const [list, setList] = useState<ReadState<DeploymentList>>(NOTHING_READ);
  const [selected, setSelected] = useState<string | null>(null);
  /** Counts the reads asked for: only the newest one's answer is shown. */
  const asked = useRef(0);

  const load = useCallback(
    async (target: ServiceRef) => {
      const ask = ++asked.current;
      setList((state) => ({ ...state, loading: true }));
      try {
        const value = await api.listDeployments(panel.id, target);
        if (ask === asked.current) setList({ value, loading: false, error: null });
      } catch (caught) {
        if (ask === asked.current) setList((state) => ({ ...state, loading: false, error: failureInfo(caught) }));
      }
    },
    [api, panel.id],
  );

  const pick = (target: ServiceRef) => {
    setShown(target);
    setSelected(null);
    setList(NOTHING_READ);
    void load(target);
  };
  // The service remembered for the panel is read when the tab opens, and when another is chosen from a service row.
  const choose = useRememberedService(panel.id, pick);
  const refreshList = useCallback(() => {
    if (shown) void load(shown);
  }, [load, shown]);

  // Each answer read schedules the next while a build runs; a failed read leaves the value as it was, so stops the reads.
  const listed = list.value;
  useEffect(() => {
    if (!shown || !listed?.deployments.some((deployment) => deployment.status === 'running')) return;
    const timer = setTimeout(() => void load(shown), HISTORY_POLL_MS);
    return () => clearTimeout(timer);
  }, [listed, load, shown]);

  // The log read says how the build stands now: a row that says otherwise is read again at once.
  const selectedStatus = listed?.deployments.find((deployment) => deployment.id === selected)?.status;
  const logRead = useCallback(
    (status: DeploymentStatus) => {
      if (selectedStatus !== undefined && status !== selectedStatus) refreshList();
    },
    [refreshList, selectedStatus],
  );

  return (
    <section className="logs-view deployments-view" aria-label="Deployments">
      <ServicePicker
        panelId={panel.id}
        busy={list.loading && list.value === null}
        submitLabel="Show deployments"
        busyLabel="Reading…"
        onPick={choose}
      />
      {shown && (
        <div className="deployments-body">
          <div className="deployments-history">
            <ReadBar
              id="deployments-title"
              title={`${shown.projectName}/${shown.serviceName}`}
              state={list}
              what="the deployments"
              onRefresh={refreshList}
            />
            {list.value &&
              (list.value.deployments.length === 0 ? (
                <p className="muted">This service has no deployments yet.</p>
              ) : (
                <DeploymentTable
                  panelId={panel.id}
                  deployments={list.value.deployments}
                  selected={selected}
                  onSelect={setSelected}
                  onCancelled={refreshList}
                />
              ))}
            {list.value?.truncated && <p className="muted">Only the newest {list.value.deployments.length} are shown.</p>}
          </div>
          {selected ? (
            <BuildLog key={selected} panelId={panel.id} deploymentId={selected} onRead={logRead} />
          ) : (
            list.value &&
            list.value.deployments.length > 0 && <p className="muted deployments-hint">Choose a deployment to read its build log.</p>
          )}
        </div>
      )}
    </section>
  );
}

function DeploymentTable({
  panelId,
  deployments,
  selected,
  onSelect,
  onCancelled,
}: {
  panelId: string;
  deployments: readonly Deployment[];
  selected: string | null;
  onSelect(id: string): void;
  onCancelled(): void;
}) {
  const now = useNow();
  const { api } = useWindowContext();
  const [cancelling, setCancelling] = useState<string | null>(null);
  const [said, setSaid] = useState('');
  // Main asks in its own confirmation and sends killAction once; the window only asks for it.
  const cancel = async (deploymentId: string) => {
    setCancelling(deploymentId);
    setSaid('');
    try {
      const result = await api.cancelDeployment(panelId, deploymentId);
      setSaid(result.outcome === 'done' ? 'The deployment was cancelled.' : (result.message ?? 'The outcome is unknown.'));
      onCancelled();
    } catch (caught) {
      setSaid(failureInfo(caught).message);
    } finally {
      setCancelling(null);
    }
  };
  return (
    <>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take the keyboard to be scrolled with it (axe: scrollable-region-focusable) */}
      <div className="deployment-scroller" tabIndex={0}>
        <table className="service-table deployment-table" aria-label="Deployments">
          <thead>
            <tr>
              <th scope="col" className="deployment-type">
                Type
              </th>
              <th scope="col" className="service-state">
                Status
              </th>
              <th scope="col">Started</th>
              <th scope="col" className="deployment-duration">
                Duration
              </th>
              <th scope="col" className="deployment-cancel">
                <span className="visually-hidden">Cancel</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {deployments.map((deployment) => (
              // A click anywhere on the row opens its log; the keyboard has the Type button, which does the same.
              <tr
                key={deployment.id}
                className={`deployment-row${deployment.id === selected ? ' deployment-selected' : ''}`}
                onClick={(event) => {
                  if (!(event.target instanceof Element && event.target.closest('button'))) onSelect(deployment.id);
                }}
              >
                <td>
                  <button
                    type="button"
                    className="button-link"
                    aria-pressed={deployment.id === selected}
                    title={`Read the build log of ${deployment.type} ${deployment.id}`}
                    onClick={() => onSelect(deployment.id)}
                  >
                    {deployment.type}
                  </button>
                </td>
                <td className="service-state">
                  <StatusWord status={deployment.status} />
                </td>
                <td>{deployment.startedAt === null ? '' : startedFormat.format(new Date(deployment.startedAt))}</td>
                <td className="deployment-duration">{deploymentDuration(deployment, now)}</td>
                <td className="deployment-cancel">
                  {deployment.status === 'running' && deployment.noKill !== true && (
                    <button
                      type="button"
                      disabled={cancelling !== null}
                      title={`Cancel ${deployment.type} ${deployment.id}`}
                      onClick={() => void cancel(deployment.id)}
                    >
                      {cancelling === deployment.id ? 'Cancelling…' : 'Cancel'}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {said && (
        <p className="muted deployment-cancel-said" role="status">
          {said}
        </p>
      )}
    </>
  );
}

function StatusWord({ status }: { status: Deployment['status'] }) {
  return (
    <>
      <span className={`state-mark state-${STATUS_MARKS[status]}`} aria-hidden="true" />
      {STATUS_WORDS[status]}
    </>
  );
}

/**
 * One deployment's build log, read at once and again every `BUILD_LOG_POLL_MS` while the build
 * runs; the reads stop when it ends, when another is chosen, or when the tab goes (unmounted).
 * Each read's status is told to `onRead`.
 */
function BuildLog({ panelId, deploymentId, onRead }: { panelId: string; deploymentId: string; onRead(status: DeploymentStatus): void }) {
  const { api } = useWindowContext();
  const [state, setState] = useState<ReadState<DeploymentLog>>({ ...NOTHING_READ, loading: true });
  const [round, setRound] = useState(0);
  const [copied, setCopied] = useState('');
  const told = useRef(onRead);
  told.current = onRead;
  const box = useRef<HTMLDivElement>(null);
  // Chosen in a narrow window, the log is below the history: once read, it comes into view. (A block body:
  // Chromium's scrollIntoView now returns a promise, which React would take for a cleanup.)
  const hasLog = state.value !== null;
  useEffect(() => {
    if (hasLog) void box.current?.scrollIntoView({ block: 'nearest' });
  }, [hasLog]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `round` is Refresh: it starts the reads afresh
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const read = async () => {
      try {
        const value = await api.getDeploymentLog(panelId, deploymentId);
        if (stopped) return;
        setState({ value, loading: false, error: null });
        told.current(value.status);
        if (value.status === 'running') timer = setTimeout(() => void read(), BUILD_LOG_POLL_MS);
      } catch (caught) {
        // Following stops at a failure, said in the panel's words; Refresh starts it again.
        if (!stopped) setState((current) => ({ ...current, loading: false, error: failureInfo(caught) }));
      }
    };
    void read();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [api, panelId, deploymentId, round]);

  const log = state.value;
  const lines = useMemo(() => logRows(log?.log ?? ''), [log?.log]);
  const following = log?.status === 'running' && state.error === null;
  const copy = async () => {
    const ok = await copyText(log?.log ?? '');
    setCopied(ok ? `Copied ${lines.length.toLocaleString('en')} lines.` : 'The system refused the copy.');
  };
  return (
    <div className="build-log" ref={box}>
      <ReadBar
        id="build-log-title"
        title="Build log"
        state={state}
        what="the build log"
        onRefresh={() => {
          setState((current) => ({ ...current, loading: true }));
          setRound((value) => value + 1);
        }}
      />
      {log && (
        <>
          <div className="logs-toolbar">
            <span className="build-log-status">
              <StatusWord status={log.status} />
            </span>
            <button type="button" onClick={() => void copy()} disabled={lines.length === 0}>
              Copy
            </button>
            <span className="muted" role="status">
              {lines.length.toLocaleString('en')} lines{log.truncated ? ' (only the end: the log is longer)' : ''} · read{' '}
              {timeFormat.format(new Date(log.readAt))}
              {following ? ' · following' : ''}
            </span>
            <span className="muted">{copied}</span>
          </div>
          <LogLines lines={lines} stickToEnd onlyAtEnd label={`Build log of ${deploymentId}`} />
        </>
      )}
    </div>
  );
}
