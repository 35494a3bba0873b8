import { ALERT_MESSAGE_MAX, ALERT_TABS, type Alert, type AlertKind } from '../../../shared/alerts.ts';
import { untilText } from '../../../shared/durations.ts';
import type { ErrorCode } from '../../../shared/contract/errors.ts';
import type { PanelEvent } from '../../../shared/contract/events.ts';
import type { PanelCheck } from '../../../shared/types.ts';
import { secretMatcher } from '../secrets/secret-match.ts';
import { type DetectedAlert, detectAlerts, diskPercent, type PanelObservation, UNANSWERED } from './alert-detection.ts';
import type { CoreMethods, FolderAccess } from '../context/core-context.ts';
import type { DataFolder } from '../storage/data-folder.ts';

/** How a panel that stopped answering failed, in the operator's words (never the panel's, which could hold anything). */
const UNANSWERED_TEXT: Partial<Record<ErrorCode, string>> = {
  NETWORK: 'it could not be reached',
  TIMEOUT: 'it did not answer in time',
  SERVER_ERROR: 'it answered with a server error',
};

/**
 * Raises alerts when a panel's state changes for the worse: after each check of a panel, its
 * observation (answered, services down, disk) is compared with the one before (`detectAlerts`),
 * in memory, so the first check of a run is the baseline. Each alert goes to the alert list
 * (`alerts.json`) and out as an `alertRaised` event, which main turns into a system notification.
 */
export class AlertCenter {
  readonly #now: () => Date;
  readonly #emit: (event: PanelEvent) => void;
  readonly #observations = new Map<string, PanelObservation>();
  #sequence = 0;

  constructor(options: { now(): Date; emit(event: PanelEvent): void }) {
    this.#now = options.now;
    this.#emit = options.emit;
  }

  /** After a check of the panel: `down` is what its state read found down (null: not read, or not named). */
  checked(state: DataFolder, check: PanelCheck, down: string[] | null, token: string | undefined): void {
    const { panelId } = check;
    const health = check.ok ? state.history.get(panelId).health : null;
    const next: PanelObservation = {
      answered: check.ok ? true : UNANSWERED.has(check.error.code) ? false : null,
      down: check.ok && down ? down.toSorted() : null,
      diskPercent: health ? diskPercent(health.disk) : null,
    };
    const threshold = state.settings.get().diskAlertPercent;
    const { alerts, kept } = detectAlerts(this.#observations.get(panelId), next, threshold);
    this.#observations.set(panelId, kept);
    const reason = check.ok ? '' : (UNANSWERED_TEXT[check.error.code] ?? '');
    for (const alert of alerts) this.#raise(state, panelId, alert.kind, (name) => messageOf(alert, name, threshold, reason), token);
  }

  /** The expiry watcher warned of the session's end: the list records it too. */
  sessionEnding(state: DataFolder, panelId: string, expiresAt: string): void {
    const endsIn = untilText(Date.parse(expiresAt), this.#now().getTime());
    this.#raise(state, panelId, 'sessionEnding', (name) => `The session of ${name} ends ${endsIn}. Log in again to keep working.`);
  }

  /** Removed: its next check, if it ever came back, would be a first one. */
  forget(panelId: string): void {
    this.#observations.delete(panelId);
  }

  #raise(state: DataFolder, panelId: string, kind: AlertKind, text: (name: string) => string, token?: string): void {
    const record = state.registry.get(panelId);
    if (!record) return;
    const panelName = record.name.trim() || panelId;
    const message = keptAlertMessage(text(panelName), panelName, token);
    const at = this.#now();
    const alert: Alert = {
      id: `${at.getTime()}-${++this.#sequence}`,
      at: at.toISOString(),
      panelId,
      panelName,
      kind,
      message,
      tab: ALERT_TABS[kind],
    };
    state.alerts.add(alert);
    this.#emit({ type: 'alertRaised', alert });
  }
}

/**
 * An alert's message as kept: what the panel said in it (a service's name, a failure's words) may
 * echo the token, and then is not repeated. Searched whole, before the message is cut to its
 * length: a cut could keep part of the token in a form the matcher no longer knows.
 */
export function keptAlertMessage(whole: string, panelName: string, token: string | undefined): string {
  if (token && secretMatcher([token])(whole)) return `Something changed for the worse on ${panelName}.`;
  return whole.slice(0, ALERT_MESSAGE_MAX);
}

function messageOf(alert: DetectedAlert, name: string, threshold: number, reason: string): string {
  switch (alert.kind) {
    case 'serviceDown':
      return `The service ${alert.service} is down on ${name}.`;
    case 'diskFull':
      return `The disk of ${name} is ${alert.percent}% full (alert at ${threshold}%).`;
    case 'unreachable':
      return `${name} stopped answering: ${reason || 'the check failed'}.`;
  }
}

/** The alert list (`listAlerts`), and the session ends main's expiry watcher warns of (`sessionEnding`). */
export function alertMethods(
  { state }: FolderAccess,
  alerts: Pick<AlertCenter, 'sessionEnding'>,
): CoreMethods<'listAlerts' | 'sessionEnding'> {
  return {
    async listAlerts() {
      return (await state()).alerts.list();
    },
    async sessionEnding(panelId, expiresAt) {
      // From main's own watcher, not the window; still checked, as everything reaching the core is.
      if (typeof panelId !== 'string' || !Number.isFinite(Date.parse(expiresAt))) return;
      alerts.sessionEnding(await state(), panelId, expiresAt);
    },
  };
}
