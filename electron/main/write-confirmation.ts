import { type PlanAnswer, typedConfirms, type WritePlan, CONFIRMATION_CHANNELS } from '../../shared/write-plan.ts';

/**
 * Main's own confirmation of a write (issue 30): before the core sends any write it awaits
 * `confirmWrite(plan)`, which opens a window of main's own showing the plan. That window has its
 * own preload (confirm-preload.ts: the plan and one answer), its own page (renderer/confirm/:
 * every text set as text) and its own session, so the panel window's code, which renders what
 * panels chose, can neither draw it, script it nor answer for it. Main checks the answer itself:
 * it must come from that window, name that plan, and carry the typed text the plan asks for.
 */

/** The window the confirmation shows in, as this module drives it (Electron's BrowserWindow in the app). */
export interface ConfirmationWindow {
  /** The `webContents.id` of its page: the only sender whose calls are answered. */
  readonly contentsId: number;
  /** Called once when the window is gone, however it went (closed, crashed, its parent quit). */
  onGone(listener: () => void): void;
  close(): void;
}

/** The sender of a confirmation call, as `IpcMainInvokeEvent.sender` gives it. */
export interface ConfirmationSender {
  readonly id: number;
}

export interface ConfirmationIpc {
  handle(channel: string, listener: (event: { sender: ConfirmationSender }, ...args: unknown[]) => unknown): void;
  removeHandler(channel: string): void;
}

export interface WriteConfirmationDeps {
  ipc: ConfirmationIpc;
  /** Opens the confirmation window, its page loading; it asks for the plan itself. */
  openWindow(plan: WritePlan): ConfirmationWindow;
}

export interface WriteConfirmation {
  /** Asks the operator about `plan` in main's window; true only when they confirmed exactly it. One at a time: the next waits. */
  confirmWrite(plan: WritePlan): Promise<boolean>;
  /** Closes any confirmation open (answered: not confirmed) and removes the handlers. */
  dispose(): void;
}

interface Pending {
  plan: WritePlan;
  window: ConfirmationWindow;
  settle(confirmed: boolean): void;
}

const NOT_YOURS = 'Refused: only Paneldeck’s own confirmation window answers a confirmation.';

function isAnswer(value: unknown): value is PlanAnswer {
  if (typeof value !== 'object' || value === null) return false;
  const { planId, confirmed, typed } = value as Record<string, unknown>;
  return typeof planId === 'string' && typeof confirmed === 'boolean' && typeof typed === 'string' && typed.length <= 1000;
}

export function createWriteConfirmation({ ipc, openWindow }: WriteConfirmationDeps): WriteConfirmation {
  let pending: Pending | null = null;
  // Confirmations queue: a second write asked while one is open waits for its answer.
  let queue: Promise<unknown> = Promise.resolve();

  const current = (sender: ConfirmationSender): Pending => {
    if (!pending || sender.id !== pending.window.contentsId) throw new Error(NOT_YOURS);
    return pending;
  };
  ipc.handle(CONFIRMATION_CHANNELS.plan, (event) => current(event.sender).plan);
  ipc.handle(CONFIRMATION_CHANNELS.answer, (event, answer) => {
    const asked = current(event.sender);
    if (!isAnswer(answer) || answer.planId !== asked.plan.id) throw new Error('Refused: that answer is not about the plan shown.');
    asked.settle(answer.confirmed && typedConfirms(asked.plan, answer.typed));
  });

  const ask = (plan: WritePlan) =>
    new Promise<boolean>((resolve) => {
      let settled = false;
      const window = openWindow(plan);
      const settle = (confirmed: boolean) => {
        if (settled) return;
        settled = true;
        if (pending?.window === window) pending = null;
        resolve(confirmed);
        window.close();
      };
      pending = { plan, window, settle };
      window.onGone(() => settle(false));
    });

  return {
    confirmWrite(plan) {
      const answer = queue.then(() => ask(plan));
      queue = answer.catch(() => undefined);
      return answer;
    },
    dispose() {
      pending?.settle(false);
      ipc.removeHandler(CONFIRMATION_CHANNELS.plan);
      ipc.removeHandler(CONFIRMATION_CHANNELS.answer);
    },
  };
}
