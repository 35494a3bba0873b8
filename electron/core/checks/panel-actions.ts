import { PanelError } from '../../../shared/contract/errors.ts';
import { mergeTimeline, PANEL_ACTIONS_KEPT, type PanelAction, type PanelActionsRead, TIMELINE_BOUND } from '../../../shared/timeline.ts';
import { readPanelActions } from '../easypanel/deployment-answers.ts';
import { callPanel, MissingRouteError } from '../easypanel/panel-calls.ts';
import type { RequestSettings } from '../easypanel/panel-endpoints.ts';
import { secretMatcher } from '../secrets/secret-match.ts';
import type { DataFolder } from '../storage/data-folder.ts';
import type { PanelRecord } from '../storage/panel-registry.ts';
import type { CoreMethods, FolderAccess } from '../context/core-context.ts';

/**
 * A panel's actions are read at every this many checks of it (and at its first check after a
 * start, and at a check whose state read counted its services otherwise than at the last actions
 * read): with checks every 5 minutes, a panel's history is at most 15 minutes behind when nothing
 * changes, and one check behind when something does. One request more a third of the checks.
 */
export const ACTIONS_EVERY_CHECKS = 3;

interface Kept {
  readAt: string | null;
  actions: readonly PanelAction[];
  problem: string | null;
  checksSince: number;
  /** The service counts of the panel's state when the actions were last read. */
  countsSeen: string;
}

export interface PanelActionsOptions {
  request: RequestSettings;
  now(): Date;
}

/**
 * Each panel's newest actions (`listActions` for the whole panel, `PANEL_ACTIONS_KEPT` of them),
 * read in a check's slot after its state read, in main's memory only (a start reads them again).
 * A read that fails keeps the last actions and says why; it never fails the check or the
 * panel's state (a refused token is the session read's to judge).
 */
export class PanelActionsReader {
  readonly #options: PanelActionsOptions;
  readonly #kept = new Map<string, Kept>();

  constructor(options: PanelActionsOptions) {
    this.#options = options;
  }

  /** Reads the panel's actions when due (see `ACTIONS_EVERY_CHECKS`); true when what is kept changed. Never rejects. */
  async read(state: DataFolder, record: PanelRecord, token: string, signal: AbortSignal): Promise<boolean> {
    const kept = this.#kept.get(record.id);
    const counts = JSON.stringify(state.history.get(record.id).health?.services ?? null);
    const due = kept === undefined || kept.checksSince + 1 >= ACTIONS_EVERY_CHECKS || kept.countsSeen !== counts;
    if (!due) {
      kept.checksSince++;
      return false;
    }
    if (signal.aborted) return false;
    const { request, now } = this.#options;
    try {
      const answer = await callPanel(request, record, token, 'listActions', { limit: PANEL_ACTIONS_KEPT }, { signal });
      const actions = readPanelActions(answer, secretMatcher([token]));
      this.#kept.set(record.id, { readAt: now().toISOString(), actions, problem: null, checksSince: 0, countsSeen: counts });
      return kept === undefined || kept.problem !== null || actionsKey(kept.actions) !== actionsKey(actions);
    } catch (error) {
      if (error instanceof PanelError && error.code === 'CANCELLED') return false;
      this.#kept.set(record.id, {
        readAt: kept?.readAt ?? null,
        actions: kept?.actions ?? [],
        problem: failureWords(error),
        checksSince: 0,
        countsSeen: counts,
      });
      return kept?.problem === null || kept === undefined;
    }
  }

  /** The kept reads of the panels still in the list, by their current names. */
  reads(state: Pick<DataFolder, 'registry'>): PanelActionsRead[] {
    return [...this.#kept].flatMap(([panelId, kept]) => {
      const record = state.registry.get(panelId);
      return record ? [{ panelId, panelName: record.name, readAt: kept.readAt, actions: kept.actions, problem: kept.problem }] : [];
    });
  }

  /** Forgets a panel's actions (removed, or moved to another address: another panel's history). */
  forget(panelId: string): void {
    this.#kept.delete(panelId);
  }
}

/** What the window shows of a panel's actions: a new one or a new status is a change. */
const actionsKey = (actions: readonly PanelAction[]) => actions.map((action) => `${action.id}:${action.status}`).join(',');

function failureWords(error: unknown): string {
  if (error instanceof MissingRouteError) return 'This panel has no actions history to read.';
  return error instanceof PanelError ? error.message : 'Reading the actions failed unexpectedly.';
}

/** The timeline: Paneldeck's activity log and the panels' actions as last read, merged; no request. */
export function timelineMethods({ state }: FolderAccess, actions: Pick<PanelActionsReader, 'reads'>): CoreMethods<'listTimeline'> {
  return {
    async listTimeline({ panelId, limit } = {}) {
      const current = await state();
      const reads = actions.reads(current).filter((read) => panelId === undefined || read.panelId === panelId);
      return mergeTimeline(current.activity.list({ panelId }), reads, limit ?? TIMELINE_BOUND);
    },
  };
}
