import { useEffect, useId, useMemo, useState, type FormEvent } from 'react';
import { plural } from '../../shared/counts.ts';
import {
  DEFAULT_UPGRADE_OPTIONS,
  type PanelUpgradeResult,
  UPGRADE_CANARY_MAX,
  UPGRADE_WAVE_MAX,
  type UpgradeOptions,
  type UpgradePhase,
  type UpgradeRun,
} from '../../shared/upgrades.ts';
import { useApi, usePanels } from '../window/app-context.tsx';
import { useBusyAction } from '../window/busy-action.ts';
import { ModalDialog } from '../ui/modal-dialog.tsx';
import { UPGRADE_PHASE_WORDS, upgradeCounts, upgradeRows, upgradeTargets } from './upgrade-rows.ts';

interface UpgradeDialogProps {
  /** The panels selected when the dialog was opened. */
  panelIds: readonly string[];
  /** The run main holds from before the window was loaded again: shown as it stands, and followed to its end. */
  run: UpgradeRun | null;
  onClose(): void;
}

/**
 * "Upgrade Easypanel on N panels": how the run is cut (the canary alone first, then waves), then
 * main's own confirmation of its plan, then each panel's step as main tells it, with Cancel; then
 * what came of each. The window only asks: main reads, plans, confirms and sends.
 */
export function UpgradeDialog({ panelIds, run: heldRun, onClose }: UpgradeDialogProps) {
  const api = useApi();
  const { byId } = usePanels();
  // The panels to upgrade as the dialog opened: an upgraded panel (now up to date) stays in its row; a run taken up keeps all of main's.
  const [targetIds] = useState(
    () => new Set(heldRun ? panelIds : upgradeTargets(panelIds.flatMap((id) => byId.get(id) ?? [])).map((panel) => panel.id)),
  );
  // Panels removed meanwhile drop out.
  const panels = useMemo(() => panelIds.flatMap((id) => (targetIds.has(id) ? (byId.get(id) ?? []) : [])), [panelIds, targetIds, byId]);
  const leftOut = panelIds.length - panels.length;
  const [options, setOptions] = useState<UpgradeOptions>({ ...(heldRun?.options ?? DEFAULT_UPGRADE_OPTIONS) });
  const [steps, setSteps] = useState<ReadonlyMap<string, { phase: UpgradePhase; message: string | null }>>(
    () => new Map(heldRun?.steps.map(({ panelId, phase, message }) => [panelId, { phase, message }])),
  );
  const [results, setResults] = useState<PanelUpgradeResult[] | null>(null);
  const [cancelling, setCancelling] = useState(heldRun?.cancelling ?? false);
  const { busy: asking, error, run } = useBusyAction();
  // A run that ended between main's answer and this dialog listening: its end was told to no one here.
  const [endedUnseen, setEndedUnseen] = useState(false);
  // A run taken up is under way until main says it ended: its answer went to the page before this one.
  const busy = asking || (heldRun !== null && results === null && !endedUnseen);
  const fieldId = useId();

  useEffect(
    () =>
      api.onEvent((event) => {
        if (event.type === 'upgradeChanged')
          setSteps((before) => new Map(before).set(event.panelId, { phase: event.phase, message: event.message }));
        else if (event.type === 'upgradesEnded' && heldRun) setResults(event.results);
      }),
    [api, heldRun],
  );
  // Listening now: a run taken up that main no longer holds ended before.
  useEffect(() => {
    if (!heldRun) return;
    api.getUpgradeRun().then(
      (now) => now === null && setEndedUnseen(true),
      () => setEndedUnseen(true),
    );
  }, [api, heldRun]);

  const rows = upgradeRows(panels, options, steps, results);
  // A run taken up was started: never offered again from here.
  const started = busy || results !== null || heldRun !== null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      setSteps(new Map());
      setResults(
        await api.upgradePanels(
          panels.map((panel) => panel.id),
          options,
        ),
      );
    });
  };
  const cancel = () => {
    setCancelling(true);
    void api.cancelUpgrades();
  };
  // While it runs, Esc does nothing: closing would not stop what was sent; only Cancel stops.
  const close = busy ? () => undefined : onClose;
  const title =
    results || endedUnseen
      ? 'Upgrade: done'
      : busy
        ? `Upgrading ${plural(panels.length, 'panel')}`
        : `Upgrade Easypanel on ${plural(panels.length, 'panel')}`;
  const number = (field: keyof UpgradeOptions, max: number, min: number) => (
    <input
      id={`${fieldId}-${field}`}
      type="number"
      min={min}
      max={max}
      value={options[field]}
      disabled={started}
      onChange={(event) => {
        const value = Math.trunc(Number(event.target.value));
        if (Number.isFinite(value)) setOptions((before) => ({ ...before, [field]: Math.min(max, Math.max(min, value)) }));
      }}
    />
  );

  return (
    <ModalDialog title={title} className="modal-wide upgrade-dialog" onClose={close}>
      <form onSubmit={submit} className="upgrade-form" noValidate>
        <p className="muted">
          Each panel restarts while it updates. Paneldeck waits for each wave to come back on a new version before the next, and stops at
          the first failure.
          {leftOut > 0 && ` ${plural(leftOut, 'selected panel')} ${leftOut === 1 ? 'is' : 'are'} left out: not signed in, or up to date.`}
        </p>
        <div className="upgrade-options">
          <div className="field">
            <label className="field-label" htmlFor={`${fieldId}-canary`}>
              First, alone
            </label>
            {number('canary', UPGRADE_CANARY_MAX, 0)}
          </div>
          <div className="field">
            <label className="field-label" htmlFor={`${fieldId}-waveSize`}>
              Then at most, at once
            </label>
            {number('waveSize', UPGRADE_WAVE_MAX, 1)}
          </div>
        </div>
        <div className="upgrade-rows">
          <table aria-label="Panels to upgrade">
            <thead>
              <tr>
                <th scope="col">Panel</th>
                <th scope="col">Wave</th>
                <th scope="col">Version</th>
                <th scope="col">Step</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.panelId} className={`upgrade-row phase-${row.phase}`}>
                  <td className="upgrade-name">{row.name}</td>
                  <td className="muted">{row.wave}</td>
                  <td>{row.version}</td>
                  <td className="upgrade-phase" title={row.message ?? undefined}>
                    {started ? UPGRADE_PHASE_WORDS[row.phase] : ''}
                    {started && row.message && <span className="muted"> · {row.message}</span>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <p role="status" className="upgrade-counts">
          {started ? upgradeCounts(rows) : ''}
        </p>
        {endedUnseen && !results && (
          <p className="muted" role="status">
            The run ended while the window was loading: what came of each panel is in the activity log.
          </p>
        )}
        {error && (
          <p className="field-error" role="alert">
            {error.message}
          </p>
        )}
        <div className="form-actions">
          {busy ? (
            <button type="button" onClick={cancel} disabled={cancelling}>
              {cancelling ? 'Cancelling…' : 'Cancel'}
            </button>
          ) : results || heldRun ? (
            <button type="button" className="button-primary" onClick={onClose}>
              Close
            </button>
          ) : (
            <>
              <button type="button" onClick={onClose}>
                Close
              </button>
              <button type="submit" className="button-primary" disabled={panels.length === 0}>
                Upgrade {plural(panels.length, 'panel')}…
              </button>
            </>
          )}
        </div>
      </form>
    </ModalDialog>
  );
}
