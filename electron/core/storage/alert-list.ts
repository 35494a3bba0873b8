import { ALERT_MESSAGE_MAX, ALERT_TABS, ALERTS_KEPT, type Alert, isAlertKind } from '../../../shared/alerts.ts';
import { isRecord, isTime } from '../common/guards.ts';
import { type FlushTimer, realTimer } from './check-history.ts';
import type { DocumentStore } from './document-store.ts';
import { isEmptyDocument, readOrMoveAside } from './store-problems.ts';
import { WriteQueue } from './write-queue.ts';

const ALERTS_VERSION = 1;

/** One stored alert, or null when it is not what this version writes (it is dropped alone). */
function readAlert(candidate: unknown): Alert | null {
  if (!isRecord(candidate)) return null;
  const { id, at, panelId, panelName, kind, message } = candidate;
  if (typeof id !== 'string' || id.length > 100 || !isTime(at) || typeof panelId !== 'string' || typeof panelName !== 'string') return null;
  if (!isAlertKind(kind) || typeof message !== 'string') return null;
  // The tab follows from the kind: a stored one is not trusted.
  return { id, at, panelId, panelName, kind, message: message.slice(0, ALERT_MESSAGE_MAX), tab: ALERT_TABS[kind] };
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
  #pending: unknown = null;
  #dirty = false;

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

  add(alert: Alert): void {
    this.#alerts.push(alert);
    if (this.#alerts.length > ALERTS_KEPT) this.#alerts.splice(0, this.#alerts.length - ALERTS_KEPT);
    this.#dirty = true;
    if (this.#pending === null) this.#pending = this.#timer.set(() => void this.flush(), this.#delayMs);
  }

  /** Writes now what is waiting; a failure is kept for the next try (an alert list is not worth an error). */
  flush(): Promise<void> {
    if (this.#pending !== null) this.#timer.clear(this.#pending);
    this.#pending = null;
    return this.#queue.run(async () => {
      if (!this.#dirty) return;
      this.#dirty = false;
      try {
        await this.#store.save(null, () => ({ version: ALERTS_VERSION, alerts: this.#alerts }));
      } catch {
        this.#dirty = true;
      }
    });
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
  }
}
