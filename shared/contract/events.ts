import type { FleetFileInfo } from '../fleet-file.ts';
import { isCommandId, type CommandId } from './commands.ts';
import type { ErrorInfo } from './errors.ts';
import { isRecord } from '../guards.ts';
import type { PanelHealth } from '../fleet-state.ts';
import type { PanelServices, ServiceActionItemResult } from '../fleet-services.ts';
import { type Alert, ALERT_HOST_MAX, ALERT_MESSAGE_MAX, isAlertKind, isAlertTab, type AlertTab } from '../alerts.ts';
import type { ServiceAction, ServiceActionPhase } from '../service-actions.ts';
import type { Panel } from '../types.ts';
import { isUpgradePhase, type PanelUpgradeResult, type UpgradePhase } from '../upgrades.ts';
import { CELL_VALUE_MAX_CHARS, type PanelOperationResult } from '../operations-console.ts';

/**
 * What main tells the window without being asked: the window keeps its state from these instead
 * of re-reading the list after each action. Declared beside the methods, one channel for all.
 */
export type PanelEvent =
  /** These panels changed (whole, as `listPanels` gives them): added, edited, signed in or out, checked. */
  | { type: 'panelsChanged'; panels: Panel[] }
  | { type: 'panelsRemoved'; panelIds: string[] }
  /** A check read these panels' state (services, load): each whole, as `getFleetState` gives it; batched. */
  | { type: 'fleetStateChanged'; panels: PanelHealth[] }
  /**
   * Panels whose services were read anew, each whole as `getFleetServices` gives it (batched like
   * fleetStateChanged), and panels whose services are gone (removed, signed out, moved).
   */
  | { type: 'fleetServicesChanged'; panels: PanelServices[]; gone: string[] }
  /** The check of many panels under way: `done` of `total`; `done === total` when it ends. */
  | { type: 'checkProgress'; done: number; total: number }
  /** The log in to several panels under way: `done` of `total`; `done === total` when it ends. */
  | { type: 'logInProgress'; done: number; total: number }
  /** The panel's session ends at `expiresAt`, within the warning time. */
  | { type: 'sessionExpiring'; panelId: string; expiresAt: string }
  /** The operator clicked the system notification about this panel: the window shows it, at `tab` when one is named. */
  | { type: 'focusPanel'; panelId: string; tab?: AlertTab }
  /** A panel's state changed for the worse (`listAlerts` holds it from now on). */
  | { type: 'alertRaised'; alert: Alert }
  /** An alert was resolved (its condition cleared) or acknowledged: `alert` as it is now. */
  | { type: 'alertChanged'; alert: Alert }
  /** The operator chose a command in the menu (or its shortcut): the window runs it. */
  | { type: 'runCommand'; command: CommandId }
  /** A newer Paneldeck is downloaded: it installs when the operator restarts (`installUpdate`) or quits. */
  | { type: 'updateReady'; version: string }
  /** The activity log changed: an entry of this panel was added or got its outcome. The window reads it again. */
  | { type: 'activityChanged'; panelId: string }
  /**
   * A service action (`runServiceAction`) moved on: sent, then done, failed or unknown. `message`:
   * the panel's words for a failure, or why the outcome is not known; null otherwise.
   */
  | {
      type: 'serviceActionChanged';
      panelId: string;
      projectName: string;
      serviceName: string;
      action: ServiceAction;
      phase: ServiceActionPhase;
      message: string | null;
    }
  /**
   * The run of `runServiceActions` ended: each item's result in the order asked, as its answer
   * gives them (a window reloaded during the run has only this).
   */
  | { type: 'serviceActionsEnded'; results: ServiceActionItemResult[] }
  /** A panel of the upgrade run under way went a step further (queued, sent, waiting, or its end). */
  | { type: 'upgradeChanged'; panelId: string; phase: UpgradePhase; message: string | null }
  /** The upgrade run ended: each panel's result in the order asked. */
  | { type: 'upgradesEnded'; results: PanelUpgradeResult[] }
  /** New lines of a followed service log (`followServiceLogs`), oldest first, at most a batch's worth. */
  | { type: 'serviceLogLines'; followId: string; lines: string[] }
  /** The follow ended: stopped (`error` null), or why not (the sign-in ended, the panel closed it or failed). */
  | { type: 'serviceLogEnded'; followId: string; error: ErrorInfo | null }
  /** A read (or allowed write) across panels (`callOperationOnPanels`): one panel's result as it ends, `done` of `total`. */
  | { type: 'operationProgress'; result: PanelOperationResult; done: number; total: number }
  /** The fleet files followed changed: one read, a problem, a conflict, a file opened or closed. */
  | { type: 'fleetFilesChanged'; files: FleetFileInfo[] };

export type PanelEventType = PanelEvent['type'];

/** The one channel main sends events on. */
export const EVENT_CHANNEL = 'panelApi:event';

/** Every event type, keyed so that the compiler refuses a type missing here or one that is not in the union. */
const EVENT_TYPES: Readonly<Record<PanelEventType, true>> = {
  panelsChanged: true,
  panelsRemoved: true,
  fleetStateChanged: true,
  fleetServicesChanged: true,
  checkProgress: true,
  logInProgress: true,
  sessionExpiring: true,
  focusPanel: true,
  alertRaised: true,
  alertChanged: true,
  runCommand: true,
  updateReady: true,
  activityChanged: true,
  serviceActionChanged: true,
  serviceActionsEnded: true,
  upgradeChanged: true,
  upgradesEnded: true,
  serviceLogLines: true,
  serviceLogEnded: true,
  operationProgress: true,
  fleetFilesChanged: true,
};

function isEventType(type: unknown): type is PanelEventType {
  return typeof type === 'string' && Object.hasOwn(EVENT_TYPES, type);
}

/** A cheap check of what arrives on the channel: the bridge passes on nothing else. */
export function isPanelEvent(value: unknown): value is PanelEvent {
  if (!isRecord(value) || !isEventType(value.type)) return false;
  const { type, command, version } = value as { type: string; command?: unknown; version?: unknown };
  if (type === 'runCommand') return isCommandId(command);
  // Shown in the window as it is: text, and short.
  if (type === 'updateReady') return typeof version === 'string' && version.length <= 100;
  if (type === 'serviceActionChanged') return isServiceActionChange(value);
  if (type === 'serviceActionsEnded') return isRunEnd(value);
  if (type === 'upgradeChanged') return isUpgradeChange(value);
  if (type === 'upgradesEnded') return Array.isArray((value as { results?: unknown }).results);
  if (type === 'serviceLogLines') return Array.isArray((value as { lines?: unknown }).lines);
  if (type === 'fleetStateChanged') return Array.isArray((value as { panels?: unknown }).panels);
  if (type === 'fleetServicesChanged') return isFleetServicesChange(value);
  if (type === 'focusPanel') return value.tab === undefined || isAlertTab(value.tab);
  if (type === 'alertRaised' || type === 'alertChanged') return isAlert(value.alert);
  if (type === 'operationProgress') return isOperationProgress(value);
  if (type === 'fleetFilesChanged') return Array.isArray((value as { files?: unknown }).files);
  return true;
}

/** An upgrade step: a panel id, a known phase, a short message. */
function isUpgradeChange(value: Record<string, unknown>): boolean {
  const { panelId, phase, message } = value;
  return (
    typeof panelId === 'string' &&
    panelId.length <= 200 &&
    isUpgradePhase(phase) &&
    (message === null || (typeof message === 'string' && message.length <= 2000))
  );
}

const RUN_OUTCOMES: ReadonlySet<unknown> = new Set(['done', 'failed', 'cancelled']);

/** A run's step: counts, and one panel's row as the table shows it (its value a short cell, its message short text). */
function isOperationProgress(value: Record<string, unknown>): boolean {
  const count = (field: unknown) => typeof field === 'number' && Number.isInteger(field) && field >= 0;
  const nullableCount = (field: unknown) => field === null || (typeof field === 'number' && Number.isFinite(field) && field >= 0);
  const { result, done, total } = value;
  if (!count(done) || !count(total) || !isRecord(result)) return false;
  const cell = result.value;
  const shortCell =
    cell === null ||
    typeof cell === 'number' ||
    typeof cell === 'boolean' ||
    (typeof cell === 'string' && cell.length <= CELL_VALUE_MAX_CHARS);
  return (
    typeof result.panelId === 'string' &&
    result.panelId.length <= 200 &&
    RUN_OUTCOMES.has(result.outcome) &&
    nullableCount(result.status) &&
    nullableCount(result.ms) &&
    shortCell &&
    (result.message === null || (typeof result.message === 'string' && result.message.length <= 2000))
  );
}

/** An alert is shown as it is: its texts short, its kind and tab known. */
function isAlert(value: unknown): value is Alert {
  if (!isRecord(value)) return false;
  const text = (field: unknown, max: number) => typeof field === 'string' && field.length <= max;
  return (
    text(value.id, 100) &&
    text(value.at, 40) &&
    text(value.panelId, 200) &&
    text(value.panelName, 500) &&
    text(value.message, ALERT_MESSAGE_MAX) &&
    isAlertKind(value.kind) &&
    isAlertTab(value.tab) &&
    (value.service === null || text(value.service, ALERT_MESSAGE_MAX)) &&
    (value.host === null || text(value.host, ALERT_HOST_MAX)) &&
    (value.resolvedAt === null || text(value.resolvedAt, 40)) &&
    (value.acknowledgedAt === null || text(value.acknowledgedAt, 40))
  );
}

/** Panels as lists, and the gone ones as ids: the window keys its store by them. */
function isFleetServicesChange(value: Record<string, unknown>): boolean {
  const { panels, gone } = value;
  return (
    Array.isArray(panels) &&
    panels.every((panel) => isRecord(panel) && typeof panel.panelId === 'string' && Array.isArray(panel.services)) &&
    Array.isArray(gone) &&
    gone.every((panelId) => typeof panelId === 'string')
  );
}

const PHASES: ReadonlySet<unknown> = new Set(['sent', 'done', 'failed', 'unknown']);
const ACTIONS: ReadonlySet<unknown> = new Set(['deploy', 'start', 'stop', 'restart']);
const ITEM_OUTCOMES: ReadonlySet<unknown> = new Set(['done', 'failed', 'unknown', 'cancelled']);

/** A run's results: each names a service of the window's state, with its action, outcome and a text message. */
function isRunEnd(value: Record<string, unknown>): boolean {
  const { results } = value;
  return (
    Array.isArray(results) &&
    results.every(
      (result) =>
        isRecord(result) &&
        isServiceNaming(result) &&
        ACTIONS.has(result.action) &&
        ITEM_OUTCOMES.has(result.outcome) &&
        isShortMessage(result.message),
    )
  );
}

/** A panel's service by its names, each a key of the window's state. */
function isServiceNaming(value: Record<string, unknown>): boolean {
  const text = (field: unknown) => typeof field === 'string' && field.length <= 200;
  return text(value.panelId) && text(value.projectName) && text(value.serviceName);
}

const isShortMessage = (message: unknown) => message === null || (typeof message === 'string' && message.length <= 2000);

/** A service action's step: its names are keys of the window's state, its message text. */
function isServiceActionChange(value: Record<string, unknown>): boolean {
  return isServiceNaming(value) && ACTIONS.has(value.action) && PHASES.has(value.phase) && isShortMessage(value.message);
}
