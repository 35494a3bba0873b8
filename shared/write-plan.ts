/**
 * A write as main plans it and asks for it in its own confirmation (electron/main/write-confirmation.ts):
 * every request it will send, to which panel at which address, and what it leaves out and why.
 * The window may ask for a plan and show it; only main's confirmation approves one, and main then
 * sends exactly what the plan holds (docs/security.md, "Writes").
 */
export interface WritePlan {
  /** Main's own id for the plan; the confirmation's answer names it. */
  id: string;
  /** What will be done, in one line ("Restart 12 services on 4 panels"). */
  title: string;
  /** What else the operator should weigh (a deploy rebuilds; how to find out an unknown outcome), or null. */
  detail: string | null;
  /** The confirm button's word ("Restart", "Send"). */
  confirmLabel: string;
  panels: PlannedPanel[];
  leftOut: PlanLeftOut[];
  /** What must be typed to confirm (a production panel is among those written to), or null. */
  typedConfirmation: TypedConfirmation | null;
}

export interface PlannedPanel {
  panelId: string;
  name: string;
  /** The address the requests go to, as the panel list shows it. */
  address: string;
  /** Coloured red: a production panel. */
  production: boolean;
  /** Its generation, as the operator reads it ("Easypanel 2.33+"). */
  generation: string;
  /** The account the requests go as: the sign-in's email, or "an API token". */
  account: string;
  requests: PlannedRequest[];
}

export interface PlannedRequest {
  /** What it does to what ("restart web in shop"). */
  label: string;
  /** Exactly what is sent: method and path under the panel's address ("POST /api/restartAppService"). */
  request: string;
  /**
   * The input sent with it, as JSON text with secret values masked (shared/secret-fields.ts),
   * cut to its first lines with how many more there are; absent when the request has none to show.
   */
  input?: string;
}

export interface PlanLeftOut {
  panelName: string;
  /** What was asked and is not in the plan ("restart web in shop"), or null for the whole panel. */
  label: string | null;
  why: string;
}

export interface TypedConfirmation {
  /** The text to type, exactly. */
  text: string;
  /** Why it must be typed ("acme-prod is a production panel"). */
  why: string;
}

/** What the confirmation answers for a plan. */
export interface PlanAnswer {
  planId: string;
  confirmed: boolean;
  /** What was typed, for main to compare with the plan's `typedConfirmation`. */
  typed: string;
}

/** The channels of the confirmation window's own preload: nothing else is exposed to it. */
export const CONFIRMATION_CHANNELS = { plan: 'writeConfirmation:plan', answer: 'writeConfirmation:answer' } as const;

/** How many requests a plan holds. */
export function requestCount(plan: Pick<WritePlan, 'panels'>): number {
  return plan.panels.reduce((sum, panel) => sum + panel.requests.length, 0);
}

/** Whether `typed` confirms the plan: always when nothing must be typed, else the exact text (spaces around it aside). */
export function typedConfirms(plan: Pick<WritePlan, 'typedConfirmation'>, typed: string): boolean {
  return plan.typedConfirmation === null || typed.trim() === plan.typedConfirmation.text;
}
