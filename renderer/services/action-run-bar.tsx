import { useCallback, useState } from 'react';
import type { ServiceActionItemResult } from '../../shared/fleet-services.ts';
import { SERVICE_ACTION_LABELS, type ServiceAction } from '../../shared/service-actions.ts';
import { usePanels, useServiceActions, useWindowContext } from '../window/app-context.tsx';
import { failureInfo } from '../window/failure-info.ts';
import { formatCount } from '../ui/json-rows.ts';
import { actionItems, endedCount, type FleetPlan, fleetOutcomes, resultStates } from './all-services-actions.ts';

/** An action across panels this view started: under way (no results yet), or ended. */
interface FleetRun {
  action: ServiceAction;
  /** The rows' keys (`serviceActionKey`), in the order asked. */
  keys: readonly string[];
  results: readonly ServiceActionItemResult[] | null;
  /** Main refused the whole run (another one runs, an item it does not accept): nothing was sent. */
  refused: string | null;
  cancelling: boolean;
}

/**
 * Runs a confirmed plan with one `runServiceActions` (main bounds how many go at once, sends each
 * once and records each): every row is queued at once, main's `serviceActionChanged` events move
 * each on, and the results set what main had no event for (cancelled, refused before sending).
 * The panels acted on are checked again at the end, so their rows say what the panels say now.
 */
export function useFleetRun() {
  const { api, serviceActionStore } = useWindowContext();
  const [run, setRun] = useState<FleetRun | null>(null);
  const start = useCallback(
    (plan: FleetPlan) => {
      const { action, acting } = plan;
      const keys = acting.map((row) => row.key);
      serviceActionStore.setStates(keys.map((key) => [key, { action, phase: 'queued', message: null }] as const));
      setRun({ action, keys, results: null, refused: null, cancelling: false });
      const panelIds = [...new Set(acting.map((row) => row.panelId))];
      api.runServiceActions(actionItems(acting), action).then(
        (results) => {
          serviceActionStore.setStates(resultStates(results));
          setRun((current) => current && { ...current, results });
          // Only the rows' states are late if this fails: the next background check reads them.
          api.checkPanels(panelIds).catch(() => undefined);
        },
        (caught: unknown) => {
          const { message } = failureInfo(caught);
          serviceActionStore.setStates(keys.map((key) => [key, { action, phase: 'cancelled', message }] as const));
          setRun((current) => current && { ...current, refused: message });
        },
      );
    },
    [api, serviceActionStore],
  );
  const cancel = useCallback(() => {
    setRun((current) => current && { ...current, cancelling: true });
    // A refusal here leaves the run as it was: its own results still arrive.
    api.cancelServiceActions().catch(() => undefined);
  }, [api]);
  const dismiss = useCallback(() => setRun(null), []);
  return { run, start, cancel, dismiss };
}

interface FleetRunBarProps {
  run: FleetRun;
  onCancel(): void;
  onDismiss(): void;
}

/** The run under way (n of N ended, Cancel), then its summary with the panels' words for failures. */
export function FleetRunBar({ run, onCancel, onDismiss }: FleetRunBarProps) {
  const { states: serviceActions } = useServiceActions();
  const { byId } = usePanels();
  const label = SERVICE_ACTION_LABELS[run.action];
  const total = run.keys.length;
  if (run.refused !== null || run.results !== null) {
    const outcome =
      run.refused !== null
        ? { text: `${label} not started, nothing was sent: ${run.refused}`, failed: true }
        : fleetOutcomes(run.action, run.results!, (id) => byId.get(id)?.name ?? 'A removed panel');
    return (
      <div className={`notice fleet-run ${outcome.failed ? 'notice-error' : 'notice-info'}`} role={outcome.failed ? 'alert' : 'status'}>
        <p>{outcome.text}</p>
        <button type="button" onClick={onDismiss}>
          Dismiss
        </button>
      </div>
    );
  }
  const ended = endedCount(run.keys, serviceActions, run.action);
  return (
    <div className="notice notice-info fleet-run">
      <progress max={total} value={ended} aria-label={`${label} across panels`} />
      <p role="status">
        {label}: {formatCount(ended)} of {formatCount(total)} ended.{' '}
        {run.cancelling
          ? 'Cancelling: the services not started yet are not sent; those already sent finish.'
          : 'Cancel stops the services not started yet; those already sent finish.'}
      </p>
      <button type="button" onClick={onCancel} disabled={run.cancelling}>
        Cancel
      </button>
    </div>
  );
}
