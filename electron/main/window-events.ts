import { EVENT_CHANNEL, type PanelEvent } from '../../shared/contract/events.ts';
import type { CertificateInfo, ErrorInfo } from '../../shared/contract/errors.ts';
import type { PanelHealth } from '../../shared/fleet-state.ts';
import type { FleetServiceSummary, PanelServices } from '../../shared/fleet-services.ts';
import type { Panel } from '../../shared/types.ts';
import { isAppUrl } from './navigation-policy.ts';

/** The part of Electron's `WebContents` that events are sent through. */
export interface EventContents {
  isDestroyed(): boolean;
  getURL(): string;
  send(channel: string, ...args: unknown[]): void;
}

/** The part of Electron's `BrowserWindow` read here. */
export interface EventWindow {
  isDestroyed(): boolean;
  readonly webContents: EventContents;
}

export interface WindowEventsOptions {
  /** Origins the app's own page is served from: a window showing anything else gets nothing. */
  appOrigins: readonly string[];
  /** Gets what `send` threw (a payload Electron could not clone, say); events are never worth a crash. */
  onError?: (error: unknown) => void;
}

/**
 * Sends main's events to the app's main window and nowhere else: not to every window, not to every
 * WebContents, only to the one window attached, and only while it shows the app's own page.
 */
export class WindowEvents {
  readonly #options: WindowEventsOptions;
  #window: EventWindow | null = null;

  constructor(options: WindowEventsOptions) {
    this.#options = options;
  }

  /** Makes `window` the one that gets events; the function it returns stops that (if it is still the one). */
  attach(window: EventWindow): () => void {
    this.#window = window;
    return () => {
      if (this.#window === window) this.#window = null;
    };
  }

  /** Whether the event was handed to the window. */
  send(event: PanelEvent): boolean {
    const window = this.#window;
    if (!window || window.isDestroyed() || window.webContents.isDestroyed()) return false;
    try {
      // Checked at every send: a page that navigated away (hardenContents should stop it) hears nothing.
      if (!isAppUrl(window.webContents.getURL(), this.#options.appOrigins)) return false;
      window.webContents.send(EVENT_CHANNEL, plainEvent(event));
      return true;
    } catch (error) {
      this.#options.onError?.(error);
      return false;
    }
  }
}

/**
 * The event rebuilt from its declared fields only, so what crosses to the page is plain data that
 * structured clone copies as is, and a field the core might add later is not sent unseen.
 */
export function plainEvent(event: PanelEvent): PanelEvent {
  switch (event.type) {
    case 'panelsChanged':
      return { type: event.type, panels: event.panels.map(plainPanel) };
    case 'panelsRemoved':
      return { type: event.type, panelIds: [...event.panelIds] };
    case 'fleetStateChanged':
      return { type: event.type, panels: event.panels.map(plainHealth) };
    case 'fleetServicesChanged':
      return { type: event.type, panels: event.panels.map(plainPanelServices), gone: [...event.gone] };
    case 'checkProgress':
    case 'logInProgress':
      return { type: event.type, done: event.done, total: event.total };
    case 'sessionExpiring':
      return { type: event.type, panelId: event.panelId, expiresAt: event.expiresAt };
    case 'focusPanel':
      return event.tab === undefined
        ? { type: event.type, panelId: event.panelId }
        : { type: event.type, panelId: event.panelId, tab: event.tab };
    case 'activityChanged':
      return { type: event.type, panelId: event.panelId };
    case 'alertRaised':
    case 'alertChanged': {
      const { id, at, panelId, panelName, kind, message, tab, service, host, resolvedAt, acknowledgedAt } = event.alert;
      return { type: event.type, alert: { id, at, panelId, panelName, kind, message, tab, service, host, resolvedAt, acknowledgedAt } };
    }
    case 'runCommand':
      return { type: event.type, command: event.command };
    case 'serviceActionChanged': {
      const { panelId, projectName, serviceName, action, phase, message } = event;
      return { type: event.type, panelId, projectName, serviceName, action, phase, message };
    }
    case 'serviceActionsEnded':
      return {
        type: event.type,
        results: event.results.map(({ panelId, projectName, serviceName, action, outcome, message }) => ({
          panelId,
          projectName,
          serviceName,
          action,
          outcome,
          message,
        })),
      };
    case 'upgradeChanged':
      return { type: event.type, panelId: event.panelId, phase: event.phase, message: event.message };
    case 'fleetFilesChanged':
      return {
        type: event.type,
        files: event.files.map(({ id, path, panels, readOnly, readAt, problem, conflicts, removed, trust }) => ({
          id,
          path,
          panels,
          readOnly,
          readAt,
          problem,
          conflicts: conflicts.map(({ panelName, address, field, here, there }) => ({ panelName, address, field, here, there })),
          removed: [...removed],
          trust: trust.map(({ panelName, address, fileSha256 }) => ({ panelName, address, fileSha256 })),
        })),
      };
    case 'upgradesEnded':
      return {
        type: event.type,
        results: event.results.map(({ panelId, outcome, versionBefore, versionAfter, message }) => ({
          panelId,
          outcome,
          versionBefore,
          versionAfter,
          message,
        })),
      };
    case 'updateReady':
      return { type: event.type, version: event.version };
    case 'serviceLogLines':
      return { type: event.type, followId: event.followId, lines: [...event.lines] };
    case 'serviceLogEnded':
      return { type: event.type, followId: event.followId, error: event.error && plainError(event.error) };
    case 'operationProgress': {
      const { panelId, outcome, status, ms, value, message } = event.result;
      return { type: event.type, result: { panelId, outcome, status, ms, value, message }, done: event.done, total: event.total };
    }
  }
}

function plainPanel(panel: Panel): Panel {
  const {
    id,
    name,
    address,
    baseUrl,
    allowPlainHttp,
    generation,
    loginPath,
    sessionPath,
    trustedCertificate,
    tokenField,
    createdAt,
    lastEmail,
    signedIn,
    tokenStorage,
    tokenKind,
    keepSignedIn,
    signedOutReason,
    lastCheck,
    sessionExpiresAt,
    panelVersion,
    updateAvailable,
    group,
    tags,
    colour,
    favourite,
    muted,
    readOnly,
    notes,
    fleetFile,
    fleetFileName,
    accounts,
    writeAccount,
  } = panel;
  return {
    id,
    name,
    address,
    baseUrl,
    allowPlainHttp,
    generation,
    loginPath,
    sessionPath,
    trustedCertificate: trustedCertificate && plainCertificate(trustedCertificate),
    tokenField,
    createdAt,
    lastEmail,
    signedIn,
    tokenStorage,
    tokenKind,
    keepSignedIn,
    signedOutReason: signedOutReason && plainError(signedOutReason),
    lastCheck:
      lastCheck && (lastCheck.ok ? { at: lastCheck.at, ok: true } : { at: lastCheck.at, ok: false, error: plainError(lastCheck.error) }),
    sessionExpiresAt,
    panelVersion,
    updateAvailable,
    group,
    tags: [...tags],
    colour,
    favourite,
    muted,
    readOnly,
    notes,
    fleetFile,
    fleetFileName,
    accounts: accounts.map(({ id, email, kind, tokenStorage, addedAt }) => ({ id, email, kind, tokenStorage, addedAt })),
    writeAccount,
  };
}

function plainError(error: ErrorInfo): ErrorInfo {
  const { code, message, certificate } = error;
  return certificate ? { code, message, certificate: plainCertificate(certificate) } : { code, message };
}

function plainCertificate(certificate: CertificateInfo): CertificateInfo {
  const { sha256, subject, issuer, validFrom, validTo } = certificate;
  return { sha256, subject, issuer, validFrom, validTo };
}

function plainHealth(health: PanelHealth): PanelHealth {
  const { panelId, readAt, servicesDown, downServices, services, cpuPercent, memory, disk, version, problem } = health;
  return {
    panelId,
    readAt,
    servicesDown,
    downServices: downServices && [...downServices],
    services: services && { ...services },
    cpuPercent,
    memory: { usedMb: memory.usedMb, totalMb: memory.totalMb },
    disk: { usedGb: disk.usedGb, totalGb: disk.totalGb },
    version,
    problem: problem && { at: problem.at, code: problem.code, message: problem.message, routesMissing: problem.routesMissing },
  };
}

function plainPanelServices(panel: PanelServices): PanelServices {
  const { panelId, readAt, services, truncated, problem } = panel;
  return {
    panelId,
    readAt,
    services: services.map(plainServiceSummary),
    truncated,
    problem: problem && { at: problem.at, code: problem.code, message: problem.message },
  };
}

function plainServiceSummary(service: FleetServiceSummary): FleetServiceSummary {
  const { projectName, name, type, state, replicas, cpuPercent, memoryMb } = service;
  return {
    projectName,
    name,
    type,
    state,
    replicas: replicas && { actual: replicas.actual, desired: replicas.desired },
    cpuPercent,
    memoryMb,
  };
}
