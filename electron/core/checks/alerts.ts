import { ALERT_MESSAGE_MAX, ALERT_TABS, type Alert, type AlertKind, type StartSummary } from '../../../shared/alerts.ts';
import { PanelError } from '../../../shared/contract/errors.ts';
import { untilText } from '../../../shared/durations.ts';
import type { ErrorCode } from '../../../shared/contract/errors.ts';
import type { PanelEvent } from '../../../shared/contract/events.ts';
import type { PanelCheck } from '../../../shared/types.ts';
import type { PanelBackups } from '../../../shared/backups.ts';
import type { CertificateRow, CertificatesRead } from '../../../shared/certificates.ts';
import { secretMatcher } from '../secrets/secret-match.ts';
import { answerOf, type DetectedAlert, diskPercent, judgeCheck, type PanelObservation, sessionRenewed } from './alert-detection.ts';
import type { CoreMethods, FolderAccess } from '../context/core-context.ts';
import type { SavedObservation } from '../storage/alert-list.ts';
import type { DataFolder } from '../storage/data-folder.ts';

/** An alert of the backups read, about one service. */
type BackupAlert = { kind: 'backupFailed' | 'noBackup'; service: string };
const BACKUP_KINDS: ReadonlySet<AlertKind> = new Set<AlertKind>(['backupFailed', 'noBackup']);
const CERTIFICATE_KINDS: ReadonlySet<AlertKind> = new Set<AlertKind>(['certificateExpiring', 'certificateFailed']);

/** An alert of the certificates read, about one domain of a service. */
type CertificateAlert = {
  kind: 'certificateExpiring' | 'certificateFailed';
  service: string;
  host: string;
  message(panelName: string): string;
};

/** How a panel that stopped answering failed, in the operator's words (never the panel's, which could hold anything). */
const UNANSWERED_TEXT: Partial<Record<ErrorCode, string>> = {
  NETWORK: 'it could not be reached',
  TIMEOUT: 'it did not answer in time',
  SERVER_ERROR: 'it answered with a server error',
};

/**
 * Raises and resolves alerts as panels' states change: after each check of a panel, its
 * observation (how it answered, services down, disk) is judged against the one before and its
 * unresolved alerts (`judgeCheck`). The last observation is kept in `alerts.json` with the alerts,
 * so the first check after a start raises what changed while Paneldeck was closed; a panel never
 * observed is a baseline. A new alert goes out as `alertRaised` (main turns it into a system
 * notification), a resolved or acknowledged one as `alertChanged`.
 */
export class AlertCenter {
  readonly #now: () => Date;
  readonly #emit: (event: PanelEvent) => void;
  readonly #opened: () => DataFolder | null;
  /** Panels checked in this run: only a panel's first check counts in the start summary. */
  readonly #checkedThisRun = new Set<string>();
  readonly #summary = {
    since: null as string | null,
    comparedPanels: 0,
    alertIds: [] as string[],
    versionChanges: [] as StartSummary['versionChanges'],
  };
  #sequence = 0;

  constructor(options: { now(): Date; emit(event: PanelEvent): void; opened(): DataFolder | null }) {
    this.#now = options.now;
    this.#emit = options.emit;
    this.#opened = options.opened;
  }

  /** After a check of the panel: `down` is what its state read found down (null: not read, or not named). */
  checked(state: DataFolder, check: PanelCheck, down: string[] | null, token: string | undefined): void {
    const { panelId } = check;
    if (!state.registry.get(panelId)) return;
    const health = check.ok ? state.history.get(panelId).health : null;
    const next: PanelObservation = {
      answer: answerOf(check),
      down: check.ok && down ? down.toSorted() : null,
      diskPercent: health ? diskPercent(health.disk) : null,
    };
    const threshold = state.settings.get().diskAlertPercent;
    const saved = state.alerts.observation(panelId);
    const unresolved = state.alerts.unresolved(panelId);
    const { raised, cleared, kept } = judgeCheck(saved?.observation, next, unresolved, threshold);
    const at = this.#now().toISOString();
    // The version is read once in its period, not at every check: the last one known is kept.
    const version = state.history.get(panelId).panelVersion ?? saved?.version ?? null;
    // A check that told nothing (refused, cancelled) leaves the saved observation and its time as they were.
    const told = next.answer !== null;
    if (told) state.alerts.observe(panelId, { at, observation: kept, version });
    const { expiryWarningMinutes } = state.settings.get();
    const sessionEndsAt = state.history.get(panelId).sessionExpiresAt;
    const renewed = (alert: Alert) =>
      check.ok && alert.kind === 'sessionEnding' && sessionRenewed(alert.at, sessionEndsAt, expiryWarningMinutes);
    for (const alert of unresolved) {
      if (!cleared.includes(alert) && !renewed(alert)) continue;
      const resolved = state.alerts.update(alert.id, { resolvedAt: at });
      if (resolved) this.#emit({ type: 'alertChanged', alert: resolved });
    }
    const reason = check.ok ? '' : (UNANSWERED_TEXT[check.error.code] ?? '');
    const ids = raised.flatMap(
      (alert) => this.#raise(state, panelId, alert, (name) => messageOf(alert, name, threshold, reason), token) ?? [],
    );
    // Nor is it the panel's first look of this run: the next check is.
    if (told && !this.#checkedThisRun.has(panelId)) this.#firstLook(state, panelId, saved, version, ids);
  }

  /** The panel's first check of this run that told something: what it raised goes into the start summary. */
  #firstLook(state: DataFolder, panelId: string, saved: SavedObservation | undefined, version: string | null, raisedIds: string[]): void {
    this.#checkedThisRun.add(panelId);
    if (!saved) return;
    const summary = this.#summary;
    summary.comparedPanels++;
    if (summary.since === null || saved.at > summary.since) summary.since = saved.at;
    summary.alertIds.push(...raisedIds);
    if (saved.version !== null && version !== null && saved.version !== version) {
      const panelName = state.registry.get(panelId)?.name.trim() || panelId;
      summary.versionChanges.push({ panelId, panelName, from: saved.version, to: version });
    }
  }

  /** The expiry watcher warned of the session's end: the list records it too. */
  sessionEnding(state: DataFolder, panelId: string, expiresAt: string): void {
    const endsIn = untilText(Date.parse(expiresAt), this.#now().getTime());
    this.#raise(
      state,
      panelId,
      { kind: 'sessionEnding' },
      (name) => `The session of ${name} ends ${endsIn}. Log in again to keep working.`,
    );
  }

  /** A panel sent its update did not come back on a new version in time (or the run was cancelled while waiting for it). */
  upgradeNotBack(state: DataFolder, panelId: string, message: string): void {
    this.#raise(state, panelId, { kind: 'upgradeNotBack' }, () => message);
  }

  /**
   * After a backups read of the panels (`listBackups`): each schedule whose last run failed and each
   * database service with no enabled schedule raises one alert, kept unresolved (not raised again)
   * while it holds and resolved once a read finds it cleared. A panel whose read failed tells nothing.
   */
  backupsRead(state: DataFolder, panels: readonly PanelBackups[]): void {
    for (const panel of panels) {
      if (panel.problem !== null || !state.registry.get(panel.panelId)) continue;
      const holding = new Map<string, BackupAlert>();
      for (const { projectName, serviceName, lastRun } of panel.backups)
        if (lastRun?.status === 'error')
          holding.set(`backupFailed ${projectName}/${serviceName}`, { kind: 'backupFailed', service: `${projectName}/${serviceName}` });
      for (const { projectName, serviceName } of panel.unprotected)
        holding.set(`noBackup ${projectName}/${serviceName}`, { kind: 'noBackup', service: `${projectName}/${serviceName}` });
      this.#settleRead(state, panel.panelId, holding, {
        kinds: BACKUP_KINDS,
        keyOf: (alert) => `${alert.kind} ${alert.service}`,
        message: (alert) => (name) =>
          alert.kind === 'backupFailed'
            ? `The last backup of ${alert.service} on ${name} failed.`
            : `The database ${alert.service} on ${name} has no enabled backup.`,
      });
    }
  }

  /**
   * After a certificates read (`listCertificates`): each domain whose certificate ends within the
   * Preferences' days (or has ended) raises `certificateExpiring`, and each whose handshake failed
   * or whose certificate is not valid for it (another name, an untrusted issuer) `certificateFailed`;
   * once per domain, kept while it holds, resolved by a read that finds it cleared. A panel whose
   * services could not be read tells nothing, nor does a service whose domains could not be.
   */
  certificatesRead(state: DataFolder, read: CertificatesRead): void {
    const days = state.settings.get().certificateAlertDays;
    const unread = new Set(read.unreadServices.map(({ panelId, service }) => `${panelId} ${service}`));
    const byPanel = new Map<string, CertificateRow[]>();
    for (const row of read.probed) {
      const rows = byPanel.get(row.panelId);
      if (rows) rows.push(row);
      else byPanel.set(row.panelId, [row]);
    }
    for (const panelId of read.readPanels) {
      if (!state.registry.get(panelId)) continue;
      const holding = new Map<string, CertificateAlert>();
      for (const row of byPanel.get(panelId) ?? []) {
        const alert = certificateAlertOf(row, days);
        if (alert && !holding.has(`${alert.kind} ${alert.host}`)) holding.set(`${alert.kind} ${alert.host}`, alert);
      }
      this.#settleRead(state, panelId, holding, {
        kinds: CERTIFICATE_KINDS,
        keyOf: (alert) => `${alert.kind} ${alert.host}`,
        // A service whose domains could not be read tells nothing of its certificates.
        unknown: (alert) => alert.service !== null && unread.has(`${panelId} ${alert.service}`),
        message: (alert) => alert.message,
      });
    }
  }

  /**
   * After a read of one panel (its backups, its certificates): each unresolved alert of `kinds`
   * whose condition still holds (`holding`, by `keyOf`) is kept, one the read tells nothing of
   * (`unknown`) too, every other resolved; what holds and has no alert yet is raised.
   */
  #settleRead<Detected extends BackupAlert | CertificateAlert>(
    state: DataFolder,
    panelId: string,
    holding: Map<string, Detected>,
    rule: {
      kinds: ReadonlySet<AlertKind>;
      keyOf(alert: Pick<Alert, 'kind' | 'service' | 'host'>): string;
      unknown?(alert: Alert): boolean;
      message(detected: Detected): (panelName: string) => string;
    },
  ): void {
    const at = this.#now().toISOString();
    for (const alert of state.alerts.unresolved(panelId)) {
      if (!rule.kinds.has(alert.kind)) continue;
      if (holding.delete(rule.keyOf(alert)) || rule.unknown?.(alert)) continue;
      const resolved = state.alerts.update(alert.id, { resolvedAt: at });
      if (resolved) this.#emit({ type: 'alertChanged', alert: resolved });
    }
    for (const detected of holding.values()) this.#raise(state, panelId, detected, rule.message(detected));
  }

  /** The operator saw it: it stays in the list, and is not raised again while its condition holds. */
  acknowledge(state: DataFolder, id: string): Alert {
    const found = state.alerts.get(id);
    if (!found) throw new PanelError('NOT_FOUND', 'That alert is no longer in the list (only the newest 500 are kept).');
    if (found.acknowledgedAt !== null) return found;
    const acknowledged = state.alerts.update(id, { acknowledgedAt: this.#now().toISOString() }) ?? found;
    this.#emit({ type: 'alertChanged', alert: acknowledged });
    return acknowledged;
  }

  /** What the first check of each panel after this start raised, each alert as it stands now. */
  startSummary(state: DataFolder): StartSummary {
    const alerts = this.#summary.alertIds.flatMap((id) => state.alerts.get(id) ?? []).toReversed();
    const { since, comparedPanels, versionChanges } = this.#summary;
    return { since, comparedPanels, alerts, versionChanges: [...versionChanges] };
  }

  /** Removed: its next check, if it ever came back, would be a first one. */
  forget(panelId: string): void {
    this.#opened()?.alerts.forget(panelId);
  }

  /** Adds the alert to the list and tells of it; answers its id, or undefined when the panel is gone. */
  #raise(
    state: DataFolder,
    panelId: string,
    detected: DetectedAlert | { kind: 'sessionEnding' | 'upgradeNotBack' } | BackupAlert | CertificateAlert,
    text: (name: string) => string,
    token?: string,
  ): string | undefined {
    const record = state.registry.get(panelId);
    if (!record) return undefined;
    const panelName = record.name.trim() || panelId;
    const message = keptAlertMessage(text(panelName), panelName, token);
    const at = this.#now();
    const { kind } = detected;
    const alert: Alert = {
      id: `${at.getTime()}-${++this.#sequence}`,
      at: at.toISOString(),
      panelId,
      panelName,
      kind,
      message,
      tab: ALERT_TABS[kind],
      // A service's name comes from the panel: it may echo the token like the message, and then is not kept.
      service: 'service' in detected && message.includes(detected.service) ? detected.service : null,
      host: 'host' in detected ? detected.host : null,
      resolvedAt: null,
      acknowledgedAt: null,
    };
    state.alerts.add(alert);
    this.#emit({ type: 'alertRaised', alert });
    return alert.id;
  }
}

/**
 * The alert a probed domain's certificate holds, if any: an ended one is that, whatever else is
 * wrong; then a fault (no handshake, another name, an untrusted issuer), which no renewal date
 * fixes; then an end within `alertDays`.
 */
export function certificateAlertOf(row: CertificateRow, alertDays: number): CertificateAlert | null {
  const service = `${row.projectName}/${row.serviceName}`;
  const where = (name: string) => `${row.host} (${service} on ${name})`;
  const { daysLeft, problem } = row;
  const days = (count: number) => `${count} ${count === 1 ? 'day' : 'days'}`;
  const ending = (when: string): CertificateAlert => ({
    kind: 'certificateExpiring',
    service,
    host: row.host,
    message: (name) => `The certificate of ${where(name)} ${when}.`,
  });
  if (daysLeft !== null && daysLeft < 0) return ending(`ended ${days(-daysLeft)} ago`);
  if (problem !== null)
    return { kind: 'certificateFailed', service, host: row.host, message: (name) => `The certificate of ${where(name)}: ${problem}` };
  if (daysLeft !== null && daysLeft <= alertDays) return ending(daysLeft === 0 ? 'ends within a day' : `ends in ${days(daysLeft)}`);
  return null;
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
      return `${alert.service} on ${name} is down.`;
    case 'diskFull':
      return `The disk of ${name} is ${alert.percent}% full (alert at ${threshold}%).`;
    case 'unreachable':
      return `${name} stopped answering: ${reason || 'the check failed'}.`;
    case 'certificateChanged':
      return `The certificate of ${name} no longer matches the one trusted for it.`;
    case 'badAnswer':
      return `${name} answers, but not with its API (a web page, or an answer Paneldeck cannot read).`;
  }
}

/** The alert list (`listAlerts`), acknowledging, the start summary, and the session ends main's expiry watcher warns of (`sessionEnding`). */
export function alertMethods(
  { state }: FolderAccess,
  alerts: Pick<AlertCenter, 'sessionEnding' | 'acknowledge' | 'startSummary'>,
): CoreMethods<'listAlerts' | 'acknowledgeAlert' | 'getStartSummary' | 'sessionEnding'> {
  return {
    async listAlerts() {
      return (await state()).alerts.list();
    },
    async acknowledgeAlert(id) {
      return alerts.acknowledge(await state(), id);
    },
    async getStartSummary() {
      return alerts.startSummary(await state());
    },
    async sessionEnding(panelId, expiresAt) {
      // From main's own watcher, not the window; still checked, as everything reaching the core is.
      if (typeof panelId !== 'string' || !Number.isFinite(Date.parse(expiresAt))) return;
      alerts.sessionEnding(await state(), panelId, expiresAt);
    },
  };
}
