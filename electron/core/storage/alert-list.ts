import { ALERT_HOST_MAX, ALERT_MESSAGE_MAX, ALERT_TABS, ALERTS_KEPT, type Alert, isAlertKind } from '../../../shared/alerts.ts';
import { isRecord, isTime } from '../common/guards.ts';
import { type FlushTimer, realTimer } from './check-history.ts';
import type { DocumentStore } from './document-store.ts';
import { isEmptyDocument, readOrMoveAside } from './store-problems.ts';
import { WriteQueue } from './write-queue.ts';

/**
 * Still 1: the fields added since (an alert's `service`, `resolvedAt`, `acknowledgedAt`; the
 * panels' `observations`) are optional, so a file of either age loads in the other.
 */
const ALERTS_VERSION = 1;

/**
 * How a panel answered a check: properly (its API), not at all (NETWORK, TIMEOUT, SERVER_ERROR),
 * with a certificate that no longer matches its pin (CERTIFICATE_CHANGED), or with something that is
 * not its API (BAD_RESPONSE: an HTML page, a proxy's sign-in form).
 */
export type PanelAnswer = 'proper' | 'none' | 'certificateChanged' | 'badAnswer';

/**
 * What an alert is judged on, for one panel after one check: pure data, so detection is a
 * function of the previous observation and the new one (no clock, no I/O).
 */
export interface PanelObservation {
  /** How the panel answered; null when the check could not tell (refused, cancelled, signed out). */
  answer: PanelAnswer | null;
  /** The services down ("project/service"), sorted; null when the check could not tell which. */
  down: readonly string[] | null;
  /** Disk used in percent; null when the panel did not say. */
  diskPercent: number | null;
}

/** A panel's last observation as kept, with when it was made: what its first check after a start compares with. */
export interface SavedObservation {
  at: string;
  observation: PanelObservation;
  /** The Easypanel version the panel last reported; null when it never said. */
  version: string | null;
}

/** Longest version kept: "2.33.4", never a page. */
const VERSION_MAX = 100;

const ANSWERS: ReadonlySet<unknown> = new Set<PanelAnswer>(['proper', 'none', 'certificateChanged', 'badAnswer']);
/** Services down kept per panel at most: a panel has tens of services, never thousands. */
const DOWN_KEPT = 1000;

/** An observation as the file holds it: flat, its time beside its figures. */
function storedObservation({ at, observation, version }: SavedObservation): Record<string, unknown> {
  return { at, ...observation, version };
}

/** The kinds of alert about one service, which keep its name. */
const SERVICE_KINDS: ReadonlySet<string> = new Set(['serviceDown', 'backupFailed', 'noBackup', 'certificateExpiring', 'certificateFailed']);
/** The kinds of alert about one domain, which keep its name. */
const HOST_KINDS: ReadonlySet<string> = new Set(['certificateExpiring', 'certificateFailed']);

/** One stored alert, or null when it is not what this version writes (it is dropped alone). */
function readAlert(candidate: unknown): Alert | null {
  if (!isRecord(candidate)) return null;
  const { id, at, panelId, panelName, kind, message, service, host, resolvedAt, acknowledgedAt } = candidate;
  if (typeof id !== 'string' || id.length > 100 || !isTime(at) || typeof panelId !== 'string' || typeof panelName !== 'string') return null;
  if (!isAlertKind(kind) || typeof message !== 'string') return null;
  // The tab follows from the kind: a stored one is not trusted. Fields an older file lacks read as not known.
  return {
    id,
    at,
    panelId,
    panelName,
    kind,
    message: message.slice(0, ALERT_MESSAGE_MAX),
    tab: ALERT_TABS[kind],
    service: SERVICE_KINDS.has(kind) && typeof service === 'string' ? service.slice(0, ALERT_MESSAGE_MAX) : null,
    host: HOST_KINDS.has(kind) && typeof host === 'string' && host.length <= ALERT_HOST_MAX ? host : null,
    resolvedAt: isTime(resolvedAt) ? resolvedAt : null,
    acknowledgedAt: isTime(acknowledgedAt) ? acknowledgedAt : null,
  };
}

/** One stored observation, or null when any part is not what this version writes (the panel is then a baseline again). */
function readObservation(candidate: unknown): SavedObservation | null {
  if (!isRecord(candidate) || !isTime(candidate.at)) return null;
  const { answer, down, diskPercent, version } = candidate;
  if (answer !== null && !ANSWERS.has(answer)) return null;
  const downOk = down === null || (Array.isArray(down) && down.length <= DOWN_KEPT && down.every((name) => typeof name === 'string'));
  const diskOk = diskPercent === null || (typeof diskPercent === 'number' && diskPercent >= 0 && diskPercent <= 100);
  if (!downOk || !diskOk) return null;
  return {
    at: candidate.at,
    observation: { answer: answer as PanelAnswer | null, down: down as string[] | null, diskPercent: diskPercent as number | null },
    // Absent in a file of before versions were kept, or damaged: not known, which changes nothing.
    version: typeof version === 'string' && version.length <= VERSION_MAX ? version : null,
  };
}

/**
 * The last `ALERTS_KEPT` alerts, in `alerts.json`: kept in memory, written whole (at most 500
 * short entries, a few tens of kilobytes) through the document store's atomic write, coalesced to
 * at most one write every `delayMs` and at `flush()` (quit), as the check history is. A crash
 * loses at most the alerts of the last seconds; a damaged file is moved aside and the list starts
 * empty, which costs only the past alerts.
 */
export class AlertList {
  readonly #store: DocumentStore;
  readonly #queue = new WriteQueue();
  readonly #timer: FlushTimer;
  readonly #delayMs: number;
  /** Oldest first: adding is a push, and the newest first list is read backwards. */
  #alerts: Alert[] = [];
  /** Each panel's last observation, by panel id: kept with the alerts, so they are saved and lost together. */
  #observations = new Map<string, SavedObservation>();
  #pending: unknown = null;
  /** Whether the alerts changed since the last write: they are written whole, not journaled. */
  #alertsChanged = false;
  /** Panels whose observation changed since the last write: alone, they go to the journal once the file is large. */
  readonly #observed = new Set<string>();
  /** The first write is whole: it drops what the file held that this version would not write. */
  #rewrite = true;

  constructor(store: DocumentStore, options: { timer?: FlushTimer; delayMs?: number } = {}) {
    this.#store = store;
    this.#timer = options.timer ?? realTimer;
    this.#delayMs = options.delayMs ?? 2000;
    this.#load();
  }

  /** Newest first. */
  list(): Alert[] {
    return this.#alerts.toReversed();
  }

  get(id: string): Alert | undefined {
    return this.#alerts.find((alert) => alert.id === id);
  }

  /** The panel's alerts not resolved yet (open or acknowledged), oldest first. */
  unresolved(panelId: string): Alert[] {
    return this.#alerts.filter((alert) => alert.panelId === panelId && alert.resolvedAt === null);
  }

  add(alert: Alert): void {
    this.#alerts.push(alert);
    if (this.#alerts.length > ALERTS_KEPT) this.#alerts.splice(0, this.#alerts.length - ALERTS_KEPT);
    this.#alertsChanged = true;
    this.#changed();
  }

  /** Sets when an alert was resolved or acknowledged; answers the alert as it is now, or undefined when none has that id. */
  update(id: string, change: Partial<Pick<Alert, 'resolvedAt' | 'acknowledgedAt'>>): Alert | undefined {
    const index = this.#alerts.findIndex((alert) => alert.id === id);
    const found = this.#alerts[index];
    if (!found) return undefined;
    const updated = { ...found, ...change };
    this.#alerts[index] = updated;
    this.#alertsChanged = true;
    this.#changed();
    return updated;
  }

  observation(panelId: string): SavedObservation | undefined {
    return this.#observations.get(panelId);
  }

  observe(panelId: string, saved: SavedObservation): void {
    this.#observations.set(panelId, saved);
    this.#observed.add(panelId);
    this.#changed();
  }

  /** A removed panel: if it ever came back, its next check would be a first one. */
  forget(panelId: string): void {
    if (!this.#observations.delete(panelId)) return;
    this.#observed.add(panelId);
    this.#changed();
  }

  #changed(): void {
    if (this.#pending === null) this.#pending = this.#timer.set(() => void this.flush(), this.#delayMs);
  }

  /**
   * Writes now what is waiting; a failure is kept for the next try (an alert list is not worth an
   * error). Observations alone (a check pass over a large fleet) go to the journal once the file is
   * large, as the check history's do; a change of the alerts writes the file whole.
   */
  flush(): Promise<void> {
    if (this.#pending !== null) this.#timer.clear(this.#pending);
    this.#pending = null;
    return this.#queue.run(async () => {
      if (!this.#alertsChanged && this.#observed.size === 0) return;
      const whole = this.#alertsChanged || this.#rewrite;
      const ids = [...this.#observed];
      this.#alertsChanged = false;
      this.#observed.clear();
      const set = ids.flatMap((id) => {
        const saved = this.#observations.get(id);
        return saved ? [[id, storedObservation(saved)] as const] : [];
      });
      const remove = ids.filter((id) => !this.#observations.has(id));
      try {
        await this.#store.save(whole ? null : { field: 'observations', set, remove }, () => this.#document());
        if (whole) this.#rewrite = false;
      } catch {
        this.#alertsChanged ||= whole;
        for (const id of ids) this.#observed.add(id);
      }
    });
  }

  /** Writes the file whole if its journal holds changes: at quit. */
  compact(): Promise<void> {
    return this.#queue.run(() => this.#store.compact(() => this.#document()).catch(() => undefined));
  }

  #document(): Record<string, unknown> {
    const observations = Object.fromEntries([...this.#observations].map(([panelId, saved]) => [panelId, storedObservation(saved)]));
    return { version: ALERTS_VERSION, alerts: this.#alerts, observations };
  }

  #load(): void {
    let read: ReturnType<typeof readOrMoveAside>;
    try {
      read = readOrMoveAside(this.#store, new Date());
    } catch {
      return;
    }
    if (!read.ok || isEmptyDocument(read.document)) return;
    const document = read.document;
    if (!isRecord(document) || document.version !== ALERTS_VERSION || !Array.isArray(document.alerts)) return;
    this.#alerts = document.alerts
      .slice(-ALERTS_KEPT)
      .map(readAlert)
      .filter((alert): alert is Alert => alert !== null);
    // A file from before observations were kept has none: every panel is a baseline at its first check.
    if (!isRecord(document.observations)) return;
    for (const [panelId, candidate] of Object.entries(document.observations)) {
      const saved = readObservation(candidate);
      if (saved) this.#observations.set(panelId, saved);
    }
  }
}
