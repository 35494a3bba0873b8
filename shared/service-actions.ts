import type { ServiceRef } from './service-logs.ts';

/**
 * What an operator asks of a service on a panel (`runServiceAction`): the action, its target and
 * what it came to. Main maps the action to the service type's own write (a database's start and
 * stop are its enable and disable).
 */

export const SERVICE_ACTIONS = ['deploy', 'start', 'stop', 'restart'] as const;
export type ServiceAction = (typeof SERVICE_ACTIONS)[number];

/** What `runServiceAction` asks for: the action, on which service. */
export interface ServiceActionInput extends ServiceRef {
  action: ServiceAction;
}

/**
 * How a service action stands, as the window hears it: `sent` once recorded and on its way, then
 * `done`, `failed` (the panel refused or said it failed) or `unknown` (no answer: the panel may
 * have done it, a deploy may still be running).
 */
export type ServiceActionPhase = 'sent' | 'done' | 'failed' | 'unknown';

/** The answer of `runServiceAction` when the panel did not refuse: it did it, or its outcome is not known. */
export interface ServiceActionResult {
  panelId: string;
  projectName: string;
  serviceName: string;
  action: ServiceAction;
  outcome: 'done' | 'unknown';
  /** Why the outcome is not known, for the operator; null when done. */
  message: string | null;
}

/** The action an operator confirms, as buttons and confirmations say it. */
export const SERVICE_ACTION_LABELS: Readonly<Record<ServiceAction, string>> = {
  deploy: 'Deploy',
  start: 'Start',
  stop: 'Stop',
  restart: 'Restart',
};

/** The types a deploy, start, stop and restart are each sent to as they are. */
const DEPLOYABLE_TYPES: ReadonlySet<string> = new Set(['app', 'compose']);
/** Databases, which Easypanel only enables and disables: their start and stop. */
const DATABASE_TYPES: ReadonlySet<string> = new Set(['postgres', 'mysql', 'mariadb', 'mongo', 'redis']);

/**
 * The actions a service of `type` has, in the buttons' order: apps and compose all four,
 * databases start and stop (main sends their enable and disable), any other type none. Main
 * checks again against the type it reads afresh (electron/core/services/service-actions.ts).
 */
export function actionsOfType(type: string): readonly ServiceAction[] {
  if (DEPLOYABLE_TYPES.has(type)) return SERVICE_ACTIONS;
  return DATABASE_TYPES.has(type) ? ['start', 'stop'] : [];
}

/** Why a service of `type` lacks `action`, in a few words; null when it has it. */
export function missingActionReason(type: string, action: ServiceAction): string | null {
  if (actionsOfType(type).includes(action)) return null;
  if (!DATABASE_TYPES.has(type)) return `Paneldeck has no actions for a ${type.slice(0, 40)} service`;
  return action === 'deploy'
    ? `a ${type} database is not deployed, only started and stopped`
    : `Easypanel has no restart for a ${type} database: stop it, then start it`;
}
