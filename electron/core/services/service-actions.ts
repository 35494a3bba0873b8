import { PanelError } from '../../../shared/contract/errors.ts';
import {
  missingActionReason,
  SERVICE_ACTION_LABELS,
  type ServiceAction,
  type ServiceActionPhase,
  type ServiceActionResult,
} from '../../../shared/service-actions.ts';
import { randomUUID } from 'node:crypto';
import { callPanel } from '../easypanel/panel-calls.ts';
import { REQUESTS, routesOf } from '../easypanel/panel-requests.ts';
import { isWritableServiceType, type ServiceVerb, type ServiceWriteName, serviceWriteName } from '../easypanel/service-requests.ts';
import type { DataFolder } from '../storage/data-folder.ts';
import type { PlannedRequest } from '../../../shared/write-plan.ts';
import { askToConfirm, type ConfirmWrite } from '../writes/confirmation.ts';
import { checkAsPlanned, type PlannedSignIn, plannedSignIn, refuseReadOnly } from '../writes/held-sign-in.ts';
import { writeOutcome } from '../writes/write-outcomes.ts';
import { plannedPanel, requestLine, writePlan } from '../writes/write-plans.ts';
import type { PanelRecord } from '../storage/panel-registry.ts';
import { type WriteOutcome, writeRecorder } from '../activity/activity-methods.ts';
import type { RequestSettings } from '../easypanel/panel-endpoints.ts';
import type { CoreMethods, Emit } from '../context/core-context.ts';
import { readServiceType } from './service-reads.ts';
import { stillHeld, type TokenCalls, withToken } from '../sign-in/with-token.ts';

/**
 * Deploy, start, stop, restart a service (`runServiceAction`). The rules for writes: main reads
 * the panel's services afresh to learn the service's type, makes the plan of that type's own write
 * and asks the operator in its own confirmation (writes/); only a yes sends it, once (never
 * retried: a lost answer is an unknown outcome, not a failure), and only while the panel is still
 * signed in as planned; the activity log has the write on disk before it is sent and its outcome
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

/** What one service action uses: the requests' settings, the actions under way, the window's events (the activity log's too), main's confirmation. */
export interface ServiceWrites {
  request: RequestSettings;
  inFlight: ServiceActionsInFlight;
  emit: Emit;
  /** Main's own confirmation of a plan; without it no write is sent (NOT_CONFIRMED). */
  confirmWrite?: ConfirmWrite | undefined;
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
      return withToken(parts, panelId, async (held, signal) => {
        const { record, token, state } = held;
        // Read-only: refused before even the type is read.
        refuseReadOnly(record);
        // The type's read goes only while the sign-in lasts, as the write after it does.
        const type = await readServiceType(parts.request, record, token, target, { signal, beforeSend: stillHeld(held) });
        const write = plannedWrite(state, record, target, action, type);
        const service = `${projectName}/${serviceName}`;
        const plan = writePlan({
          id: randomUUID(),
          title: `${SERVICE_ACTION_LABELS[action]} ${service} on ${record.name}`,
          detail: ACTION_DETAILS[action],
          confirmLabel: SERVICE_ACTION_LABELS[action],
          panels: [plannedPanel(record, [write.request])],
          leftOut: [],
          several: `${action} ${service}`,
        });
        await askToConfirm(parts.confirmWrite, plan);
        return runOnce(parts, state, write, target, action);
      });
    },
  };
}

/** What the operator weighs for each action, beside the list: what it does, and how an unknown outcome is found out. */
export const ACTION_DETAILS: Readonly<Record<ServiceAction, string>> = {
  deploy:
    'A deploy builds each service from its source and rolls it out; it can take minutes. If an answer does not come, the outcome is unknown: look at the service\u2019s deployments.',
  start:
    'Each service is started (a database enabled). If an answer does not come, the outcome is unknown: look at the service\u2019s state.',
  stop: 'Each service stops (a database is disabled) until it is started again. If an answer does not come, the outcome is unknown: look at the service\u2019s state.',
  restart:
    'Each service is stopped and started again. If an answer does not come, the outcome is unknown: look at the service\u2019s state.',
};

/** One service's write as planned: the write's name, the request as it will be sent, and the sign-in it is sent under. */
export interface PlannedWrite {
  name: ServiceWriteName;
  request: PlannedRequest;
  signIn: PlannedSignIn;
  record: PanelRecord;
}

/** The write for `action` on a service of `type`, planned on the panel as it is now (INVALID_INPUT when the type lacks it). */
export function plannedWrite(
  state: Pick<DataFolder, 'vault'>,
  record: PanelRecord,
  target: ServiceTarget,
  action: ServiceAction,
  type: string,
): PlannedWrite {
  const name = writeFor(record, target, action, type);
  const route = routesOf(REQUESTS[name], record.generation)[0]!;
  const verb = action === 'start' && !isDeployable(type) ? 'enable' : action === 'stop' && !isDeployable(type) ? 'disable' : action;
  return {
    name,
    record,
    request: { label: `${verb} ${target.serviceName} in ${target.projectName}`, request: requestLine('POST', route) },
    signIn: plannedSignIn(state, record),
  };
}

const isDeployable = (type: string) => type === 'app' || type === 'compose';

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
  /** Told as the write leaves, recorded: from then on, its failure is told as the `failed` step. */
  onSent?(): void;
}

/**
 * One confirmed service action: held for the service while it runs, recorded, its steps told to
 * the window, and sent only while the panel is still signed in as planned (checked before it is
 * recorded and again right before the request leaves).
 */
export async function runOnce(
  writes: ServiceWrites,
  state: DataFolder,
  write: PlannedWrite,
  target: ServiceTarget,
  action: ServiceAction,
  { onSent }: RunOnceSteps = {},
): Promise<ServiceActionResult> {
  const { inFlight, request } = writes;
  const { record, signIn } = write;
  const panelId = record.id;
  const { projectName, serviceName } = target;
  checkAsPlanned(state, signIn);
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
    await writeRecorder(writes, state.activity)(
      record,
      { action, projectName, serviceName },
      () => {
        sent = true;
        onSent?.();
        changed('sent');
        return callPanel(
          request,
          record,
          signIn.token,
          write.name,
          { projectName, serviceName },
          // Right before the request leaves: the sign-in it was confirmed under, still.
          { generation: signIn.generation, beforeSend: () => checkAsPlanned(state, signIn) },
        );
      },
      { secrets: [signIn.token], judge: (error) => serviceActionOutcome(action, error) },
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
    throw error instanceof PanelError && message !== null ? new PanelError(error.code, message, { cause: error }) : error;
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

/**
 * What a failed write came to (writes/write-outcomes.ts): no answer from the panel itself is
 * unknown, with how to find out; a refusal or the panel's own failure is failed, in its words.
 */
export function serviceActionOutcome(action: ServiceAction, error: unknown): WriteOutcome {
  const check =
    action === 'deploy' ? 'the deploy may still be running: check the service.' : `the ${action} may have been done: check the service.`;
  return writeOutcome(error, check);
}
