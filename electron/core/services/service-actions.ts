import { PanelError } from '../../../shared/contract/errors.ts';
import {
  missingActionReason,
  type ServiceAction,
  type ServiceActionPhase,
  type ServiceActionResult,
} from '../../../shared/service-actions.ts';
import { callPanel, UnreadableAnswerError } from '../easypanel/panel-calls.ts';
import { isWritableServiceType, type ServiceVerb, type ServiceWriteName, serviceWriteName } from '../easypanel/service-requests.ts';
import type { ActivityLog } from '../storage/activity-log.ts';
import type { PanelRecord } from '../storage/panel-registry.ts';
import { type WriteOutcome, writeRecorder } from '../activity/activity-methods.ts';
import type { RequestSettings } from '../easypanel/panel-endpoints.ts';
import type { CoreMethods, Emit } from '../context/core-context.ts';
import { readServiceType } from './service-reads.ts';
import { type TokenCalls, withToken } from '../sign-in/with-token.ts';

/**
 * Deploy, start, stop, restart a service (`runServiceAction`). The rules for writes: the window
 * asked the operator once, beforehand; main reads the panel's services afresh to learn the
 * service's type and sends that type's own write, once (never retried: a lost answer is an unknown
 * outcome, not a failure); the activity log has the write on disk before it is sent and its outcome
 * after; the window hears each step as `serviceActionChanged`.
 */

export interface ServiceTarget {
  projectName: string;
  serviceName: string;
}

/**
 * The service actions under way, by panel and service: one at a time per service, and what the
 * read side shows as `deploying` while Paneldeck's own deploy is in flight.
 */
export class ServiceActionsInFlight {
  readonly #running = new Map<string, ServiceAction>();

  static #key(panelId: string, { projectName, serviceName }: ServiceTarget): string {
    // A slash is in no project or service name.
    return `${panelId}/${projectName}/${serviceName}`;
  }

  /** The action under way on the service, or null. */
  running(panelId: string, target: ServiceTarget): ServiceAction | null {
    return this.#running.get(ServiceActionsInFlight.#key(panelId, target)) ?? null;
  }

  /** The services of the panel a deploy of Paneldeck's is in flight for. */
  deploying(panelId: string): ServiceTarget[] {
    const prefix = `${panelId}/`;
    return [...this.#running]
      .filter(([key, action]) => action === 'deploy' && key.startsWith(prefix))
      .map(([key]) => {
        const [projectName = '', serviceName = ''] = key.slice(prefix.length).split('/');
        return { projectName, serviceName };
      });
  }

  /** Holds the service for `action`; false when another action holds it. */
  hold(panelId: string, target: ServiceTarget, action: ServiceAction): boolean {
    const key = ServiceActionsInFlight.#key(panelId, target);
    if (this.#running.has(key)) return false;
    this.#running.set(key, action);
    return true;
  }

  release(panelId: string, target: ServiceTarget): void {
    this.#running.delete(ServiceActionsInFlight.#key(panelId, target));
  }
}

/** What one service action uses: the requests' settings, the actions under way, the window's events (the activity log's too). */
export interface ServiceWrites {
  request: RequestSettings;
  inFlight: ServiceActionsInFlight;
  emit: Emit;
}

/** What each action is for a database, which Easypanel only enables and disables. */
const DATABASE_VERBS: Readonly<Record<ServiceAction, ServiceVerb | null>> = {
  deploy: null,
  start: 'enable',
  stop: 'disable',
  restart: null,
};

export function serviceActionMethods(parts: ServiceWrites & TokenCalls): CoreMethods<'runServiceAction'> {
  return {
    async runServiceAction(panelId, { projectName, serviceName, action }) {
      // A 401/403 to the type's read or to the write itself ends the sign-in, as a read's does.
      const target = { projectName, serviceName };
      return withToken(parts, panelId, ({ record, token, state }) =>
        runOnce(parts, { record, token, activity: state.activity }, target, action, {
          typeOf: () => readServiceType(parts.request, record, token, target),
        }),
      );
    },
  };
}

/** Tells the window a service action's step; a window that is gone must not fail a write. */
export function tellServiceAction(
  { emit }: Pick<ServiceWrites, 'emit'>,
  panelId: string,
  { projectName, serviceName }: ServiceTarget,
  action: ServiceAction,
  phase: ServiceActionPhase,
  message: string | null = null,
): void {
  try {
    emit({ type: 'serviceActionChanged', panelId, projectName, serviceName, action, phase, message });
  } catch {
    // Nothing to do: the write goes on.
  }
}

export interface RunOnceSteps {
  /** Reads the service's type afresh: a list read of the panel's own, or the one list read of a run across panels. */
  typeOf(): Promise<string>;
  /** Told as the write leaves, recorded: from then on, its failure is told as the `failed` step. */
  onSent?(): void;
}

/**
 * One service action with the panel's token: held for the service while it runs, recorded, its
 * steps told to the window. An action the type lacks is never sent.
 */
export async function runOnce(
  writes: ServiceWrites,
  { record, token, activity }: { record: PanelRecord; token: string; activity: ActivityLog },
  target: ServiceTarget,
  action: ServiceAction,
  { typeOf, onSent }: RunOnceSteps,
): Promise<ServiceActionResult> {
  const { inFlight, request } = writes;
  const panelId = record.id;
  const { projectName, serviceName } = target;
  const running = inFlight.running(panelId, target);
  if (running !== null || !inFlight.hold(panelId, target, action)) {
    throw new PanelError(
      'INVALID_INPUT',
      `${projectName}/${serviceName} on ${record.name} has a ${running ?? 'service action'} under way: wait for it to end.`,
    );
  }
  const changed = (phase: ServiceActionPhase, message: string | null = null) =>
    tellServiceAction(writes, panelId, target, action, phase, message);
  let sent = false;
  try {
    const name = writeFor(record, target, action, await typeOf());
    await writeRecorder(writes, activity)(
      record,
      { action, projectName, serviceName },
      () => {
        sent = true;
        onSent?.();
        changed('sent');
        return callPanel(request, record, token, name, { projectName, serviceName });
      },
      { secrets: [token], judge: (error) => serviceActionOutcome(action, error) },
    );
    changed('done');
    return { panelId, projectName, serviceName, action, outcome: 'done', message: null };
  } catch (error) {
    if (!sent) throw error;
    const { outcome, message } = serviceActionOutcome(action, error);
    if (outcome === 'unknown') {
      changed('unknown', message);
      return { panelId, projectName, serviceName, action, outcome: 'unknown', message };
    }
    changed('failed', message);
    throw error;
  } finally {
    inFlight.release(panelId, target);
  }
}

/**
 * The type's own write for the action. Databases: start and stop are enable and disable; they are
 * not deployed, and Easypanel has no restart for them (a disable then an enable would be two
 * writes, one of which may fail and leave the database down: the operator does that knowingly).
 */
export function writeFor(
  record: PanelRecord,
  { projectName, serviceName }: ServiceTarget,
  action: ServiceAction,
  type: string,
): ServiceWriteName {
  const service = `${projectName}/${serviceName}`;
  if (!isWritableServiceType(type)) {
    throw new PanelError(
      'INVALID_INPUT',
      `${service} on ${record.name} is a ${type.slice(0, 40)} service, which Paneldeck cannot ${action}.`,
    );
  }
  const deployable = type === 'app' || type === 'compose';
  const verb = deployable ? action : DATABASE_VERBS[action];
  const name = verb === null ? null : serviceWriteName(type, verb);
  if (name !== null) return name;
  // The window says the same when it leaves the service out of a selection.
  const why = missingActionReason(type, action) ?? `${type} has no ${action}`;
  throw new PanelError(
    'INVALID_INPUT',
    `${service} on ${record.name} cannot be ${action === 'deploy' ? 'deployed' : 'restarted'}: ${why}.`,
  );
}

/** Connection failures that happen before anything is sent: the panel never heard of the write. */
const NEVER_SENT = /refused the connection|Could not find|cannot be reached|secure connection/;

/**
 * What a failed write came to. No answer (a timeout, a connection closed after the request went)
 * is unknown: the panel may have done it, and a deploy may still be running. A refusal or a
 * failure the panel reported is failed, in its words.
 */
export function serviceActionOutcome(action: ServiceAction, error: unknown): WriteOutcome {
  const check =
    action === 'deploy' ? 'the deploy may still be running: check the service.' : `the ${action} may have been done: check the service.`;
  if (error instanceof PanelError) {
    // The panel turned the token away before doing anything: said so, never as an unknown outcome.
    if (error.code === 'UNAUTHORIZED') return { outcome: 'failed', message: `Refused, not done: ${error.message}` };
    if (error instanceof UnreadableAnswerError) {
      return { outcome: 'unknown', message: `The panel's answer could not be read (${error.message}); ${check}` };
    }
    if (error.code === 'TIMEOUT') return { outcome: 'unknown', message: `The panel did not answer in time; ${check}` };
    if (error.code === 'NETWORK' && !NEVER_SENT.test(error.message)) {
      return { outcome: 'unknown', message: `The connection closed before the panel answered; ${check}` };
    }
    return { outcome: 'failed', message: error.message };
  }
  return { outcome: 'failed', message: 'Paneldeck failed before the panel answered.' };
}
