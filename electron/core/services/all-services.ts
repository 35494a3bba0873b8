import { settle } from '../../../shared/contract/envelope.ts';
import { PanelError } from '../../../shared/contract/errors.ts';
import {
  SERVICE_ACTIONS_AT_ONCE,
  SERVICE_ACTIONS_PER_PANEL,
  type ServiceActionItem,
  type ServiceActionItemResult,
  type ServiceActionRun,
  type ServiceActionRunItem,
} from '../../../shared/fleet-services.ts';
import type { ServiceAction } from '../../../shared/service-actions.ts';
import { RunHolder } from '../schedule/run-holder.ts';
import { WorkPool } from '../schedule/work-pool.ts';
import { callPanel } from '../easypanel/panel-calls.ts';
import type { CoreMethods } from '../context/core-context.ts';
import type { KeptServices } from './kept-services.ts';
import { ACTION_DETAILS, type PlannedWrite, plannedWrite, runOnce, type ServiceWrites, tellServiceAction } from './service-actions.ts';
import { serviceTypes, typeIn } from './service-reads.ts';
import { failedWithToken, type SignedIn, stillHeld, type TokenCalls, withToken } from '../sign-in/with-token.ts';
import { randomUUID } from 'node:crypto';
import { plural } from '../../../shared/counts.ts';
import { SERVICE_ACTION_LABELS } from '../../../shared/service-actions.ts';
import type { PlanLeftOut, PlannedRequest, WritePlan } from '../../../shared/write-plan.ts';
import type { PanelRecord } from '../storage/panel-registry.ts';
import { askToConfirm } from '../writes/confirmation.ts';
import { refuseRemovedPanels } from '../writes/held-sign-in.ts';
import { plannedPanel, writePlan } from '../writes/write-plans.ts';

/**
 * The fleet's Services view: every signed-in panel's services as last read (`getFleetServices`,
 * no request), and one action on services of many panels (`runServiceActions`): each panel's
 * services read for the plan, one plan of every write (and what is left out, and why) asked once
 * in main's own confirmation, then each confirmed write sent once, 8 at a time and 2 a panel.
 */

/** The plan of a run across panels, as main's confirmation shows it. */
function runPlan(planned: readonly PlannedItem[], action: ServiceAction): WritePlan {
  const byPanel = new Map<string, { record: PanelRecord; requests: PlannedRequest[] }>();
  const leftOut: PlanLeftOut[] = [];
  for (const one of planned) {
    if ('write' in one) {
      const panel = byPanel.get(one.item.panelId) ?? { record: one.write.record, requests: [] };
      panel.requests.push(one.write.request);
      byPanel.set(one.item.panelId, panel);
    } else {
      leftOut.push({ panelName: one.panelName, label: `${action} ${one.item.serviceName} in ${one.item.projectName}`, why: one.leftOut });
    }
  }
  const writes = planned.flatMap((one) => ('write' in one ? [one] : []));
  const count = writes.length;
  const label = SERVICE_ACTION_LABELS[action];
  // Said as the operator chose it: one service by its name, one panel by its name.
  const only = byPanel.size === 1 ? [...byPanel.values()][0]!.record.name : null;
  const services = count === 1 ? `${writes[0]!.item.projectName}/${writes[0]!.item.serviceName}` : plural(count, 'service');
  return writePlan({
    id: randomUUID(),
    title: `${label} ${services} on ${only ?? plural(byPanel.size, 'panel')}`,
    detail: ACTION_DETAILS[action],
    confirmLabel: label,
    panels: [...byPanel.values()].map(({ record, requests }) => plannedPanel(record, requests)),
    leftOut,
    several: `${action} ${plural(count, 'service')}`,
  });
}

// The bounds live in shared/, where the window's confirmations read them too.
export { SERVICE_ACTIONS_AT_ONCE, SERVICE_ACTIONS_PER_PANEL };

const ALREADY_RUNNING =
  'Paneldeck is already running an action on several services. Wait for it to finish, or cancel it, before starting another.';
const CANCELLED_MESSAGE = 'Not sent: the action was cancelled before this service was reached.';

/** A panel's services as read once for a run's plan, with the sign-in they were read under; or why they could not be read. */
type PanelTypes = { ok: true; held: SignedIn; types: ReadonlyMap<string, string> } | { ok: false; error: PanelError };

/** An item of a run as planned: its write, or why it is left out (sent nothing). */
type PlannedItem = { item: ServiceActionItem; write: PlannedWrite } | { item: ServiceActionItem; leftOut: string; panelName: string };

/** The run under way as main holds it: the pool at work (reading for the plan, then sending), and each item's step for `getServiceActionRun`. */
interface HeldRun {
  pool: { cancel(): void } | null;
  action: ServiceAction;
  /** Each item asked (by identity: the contract refuses duplicates) with how far it went. */
  steps: Map<ServiceActionItem, ServiceActionRunItem>;
  cancelling: boolean;
  /** Its items were accepted and the pool started: a run refused before that was never under way. */
  started: boolean;
  cancel(): void;
}

/** What the fleet's Services view uses: the calls with each panel's token, one service action's path, the services kept. */
export interface FleetServiceParts extends TokenCalls, ServiceWrites {
  keptServices: Pick<KeptServices, 'list'>;
}

export function fleetServiceMethods(
  parts: FleetServiceParts,
): CoreMethods<'getFleetServices' | 'runServiceActions' | 'cancelServiceActions' | 'getServiceActionRun'> {
  const { state, keptServices, request } = parts;
  const runs = new RunHolder<HeldRun>(ALREADY_RUNNING);
  let current: HeldRun | null = null;

  /** The run's end, for the window: one reloaded during the run has no answer to wait for. */
  function tellRunEnded(results: ServiceActionItemResult[]): void {
    try {
      parts.emit({ type: 'serviceActionsEnded', results });
    } catch {
      // Nothing to do: the answer still carries the results.
    }
  }

  /** The panel's services read once for the plan, with the token it has now; a 401 ends its sign-in. */
  async function readTypes(panelId: string, signal: AbortSignal): Promise<PanelTypes> {
    const answer = await settle(() =>
      withToken(
        parts,
        panelId,
        async (held, whileSignedIn) => ({
          held,
          types: serviceTypes(
            await callPanel(request, held.record, held.token, 'listProjectsAndServices', undefined, {
              signal: whileSignedIn,
              beforeSend: stillHeld(held),
            }),
          ),
        }),
        signal,
      ),
    );
    if (answer.ok) return { ok: true, ...answer.value };
    return {
      ok: false,
      error: new PanelError(answer.error.code, `Not sent: the panel's services could not be read (${answer.error.message})`),
    };
  }

  /** Each item's write as it would be sent now, or why it is left out: the plan the operator is asked about. */
  async function planItems(held: HeldRun, asked: readonly ServiceActionItem[], action: ServiceAction): Promise<PlannedItem[]> {
    const panelIds = [...new Set(asked.map((item) => item.panelId))];
    const pool = new WorkPool<string, undefined, PanelTypes>({
      limit: SERVICE_ACTIONS_AT_ONCE,
      runOne: (panelId, _prepared, signal) => readTypes(panelId, signal),
      cancelled: () => ({ ok: false, error: new PanelError('CANCELLED', CANCELLED_MESSAGE) }),
    });
    held.pool = pool;
    const read = await pool.run(panelIds);
    const byPanel = new Map(panelIds.map((panelId, index) => [panelId, read[index]!]));
    const { registry } = await state();
    const nameOf = (panelId: string) => registry.get(panelId)?.name ?? 'a panel removed meanwhile';
    return asked.map((item): PlannedItem => {
      const panel = byPanel.get(item.panelId)!;
      if (!panel.ok) return { item, leftOut: panel.error.message, panelName: nameOf(item.panelId) };
      const target = { projectName: item.projectName, serviceName: item.serviceName };
      try {
        const { record, state: folder } = panel.held;
        return { item, write: plannedWrite(folder, record, target, action, typeIn(panel.types, record, target)) };
      } catch (error) {
        return {
          item,
          leftOut: error instanceof PanelError ? error.message : 'Paneldeck could not plan it.',
          panelName: nameOf(item.panelId),
        };
      }
    });
  }

  /** One confirmed item, through the one service action path (activity log, once, events), sent only while its panel is signed in as planned. */
  async function runItem(
    write: PlannedWrite,
    item: ServiceActionItem,
    action: ServiceAction,
    onSent: () => void,
  ): Promise<ServiceActionItemResult> {
    const target = { projectName: item.projectName, serviceName: item.serviceName };
    let sent = false;
    const answer = await settle(async () => {
      const current = await state();
      try {
        return await runOnce(parts, current, write, target, action, {
          onSent: () => {
            sent = true;
            onSent();
          },
        });
      } catch (error) {
        // A 401 to the write ends the panel's sign-in, as any call's does: its items left are then not sent.
        await failedWithToken(parts, { record: write.record, token: write.signIn.token, state: current }, error);
        throw error;
      }
    });
    if (answer.ok) return { ...item, action, outcome: answer.value.outcome, message: answer.value.message };
    if (!sent) tellServiceAction(parts, item.panelId, target, action, 'failed', answer.error.message);
    return { ...item, action, outcome: 'failed', message: answer.error.message };
  }

  return {
    async getFleetServices() {
      const { registry, vault } = await state();
      const signedInIds = registry.list().flatMap((record) => (vault.token(record.id, record.baseUrl) ? [record.id] : []));
      return keptServices.list(signedInIds);
    },

    async runServiceActions(asked, action) {
      const steps = new Map(
        asked.map((item): [ServiceActionItem, ServiceActionRunItem] => [item, { ...item, phase: 'queued', message: null }]),
      );
      const step = (item: ServiceActionItem, phase: ServiceActionRunItem['phase'], message: string | null = null) => {
        const held = steps.get(item);
        if (held) Object.assign(held, { phase, message });
      };
      const cancelledResult = (item: ServiceActionItem): ServiceActionItemResult => {
        step(item, 'cancelled', CANCELLED_MESSAGE);
        return { ...item, action, outcome: 'cancelled', message: CANCELLED_MESSAGE };
      };
      const start = (): HeldRun => {
        const held: HeldRun = {
          pool: null,
          action,
          steps,
          cancelling: false,
          started: false,
          cancel: () => {
            held.cancelling = true;
            held.pool?.cancel();
          },
        };
        return held;
      };
      // Held before the first wait: a second call meanwhile is refused, a cancel meanwhile counts.
      const results = await runs.hold(start, async (held) => {
        current = held;
        try {
          refuseRemovedPanels(
            await state(),
            asked.map(({ panelId }) => panelId),
            'of the services chosen',
          );
          held.started = true;
          const planned = await planItems(held, asked, action);
          if (held.cancelling) return asked.map(cancelledResult);
          const writes = planned.flatMap((one) => ('write' in one ? [one] : []));
          if (writes.length > 0) {
            // One plan for the whole run, asked once in main's own confirmation; a no sends nothing.
            await askToConfirm(parts.confirmWrite, runPlan(planned, action));
            if (held.cancelling) return asked.map(cancelledResult);
          }
          const pool = new WorkPool<{ item: ServiceActionItem; write: PlannedWrite }, undefined, ServiceActionItemResult>({
            limit: SERVICE_ACTIONS_AT_ONCE,
            perKey: SERVICE_ACTIONS_PER_PANEL,
            keyOf: ({ item }) => item.panelId,
            // The signal is left unread: a write already sent finishes, so its outcome is known.
            runOne: async ({ item, write }) => {
              const result = await runItem(write, item, action, () => step(item, 'sent'));
              step(item, result.outcome, result.message);
              return result;
            },
            // Never sent, so not in the activity log: it holds what was sent to a panel.
            cancelled: ({ item }) => cancelledResult(item),
          });
          held.pool = pool;
          const sent = new Map((await pool.run(writes)).map((result, index) => [writes[index]!.item, result]));
          return planned.map((one): ServiceActionItemResult => {
            const done = sent.get(one.item);
            if (done) return done;
            const message = 'leftOut' in one ? one.leftOut : CANCELLED_MESSAGE;
            step(one.item, 'failed', message);
            tellServiceAction(parts, one.item.panelId, one.item, action, 'failed', message);
            return { ...one.item, action, outcome: 'failed', message };
          });
        } finally {
          if (current === held) current = null;
        }
      });
      // Told once the run is let go: a window that starts the next one on hearing it is not refused.
      tellRunEnded(results);
      return results;
    },

    async cancelServiceActions() {
      runs.cancel();
    },

    async getServiceActionRun() {
      if (!current?.started) return null;
      const { action, steps, cancelling } = current;
      return { action, items: [...steps.values()].map((item) => ({ ...item })), cancelling } satisfies ServiceActionRun;
    },
  };
}
