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
import { runOnce, type ServiceWrites, tellServiceAction } from './service-actions.ts';
import { serviceTypes, typeIn } from './service-reads.ts';
import { signedIn, type TokenCalls, withToken } from '../sign-in/with-token.ts';

/**
 * The fleet's Services view: every signed-in panel's services as last read (`getFleetServices`,
 * no request), and one action on services of many panels (`runServiceActions`).
 */

// The bounds live in shared/, where the window's confirmations read them too.
export { SERVICE_ACTIONS_AT_ONCE, SERVICE_ACTIONS_PER_PANEL };

const ALREADY_RUNNING =
  'Paneldeck is already running an action on several services. Wait for it to finish, or cancel it, before starting another.';
const CANCELLED_MESSAGE = 'Not sent: the action was cancelled before this service was reached.';

/** A panel's services as read once for a run: each service's type, or why they could not be read. */
type PanelTypes = { ok: true; types: ReadonlyMap<string, string> } | { ok: false; error: PanelError };

/** The run under way as main holds it: its pool, and each item's step for `getServiceActionRun`. */
interface HeldRun {
  pool: WorkPool<ServiceActionItem, PanelTypes, ServiceActionItemResult>;
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

  /** The panel's services read once for the run, with the token it has now; a 401 ends its sign-in. */
  async function readTypes(panelId: string): Promise<PanelTypes> {
    const answer = await settle(() =>
      withToken(parts, panelId, async ({ record, token }) =>
        serviceTypes(await callPanel(request, record, token, 'listProjectsAndServices')),
      ),
    );
    if (answer.ok) return { ok: true, types: answer.value };
    return {
      ok: false,
      error: new PanelError(answer.error.code, `Not sent: the panel's services could not be read (${answer.error.message})`),
    };
  }

  /**
   * One item, through the one service action path (fresh type, activity log, once, events). One
   * that fails before it is sent is told as `failed` too, so that the window's progress counts it.
   */
  async function runItem(
    item: ServiceActionItem,
    action: ServiceAction,
    panel: PanelTypes,
    onSent: () => void,
  ): Promise<ServiceActionItemResult> {
    const { panelId, projectName, serviceName } = item;
    const target = { projectName, serviceName };
    let sent = false;
    const answer = await settle(async () => {
      // Taken at the item's start: once a 401 ended the sign-in, the panel's items left are not sent.
      signedIn(await state(), panelId);
      if (!panel.ok) throw panel.error;
      return withToken(parts, panelId, ({ record, token, state: current }) =>
        runOnce(parts, { record, token, activity: current.activity }, target, action, {
          typeOf: async () => typeIn(panel.types, record, target),
          onSent: () => {
            sent = true;
            onSent();
          },
        }),
      );
    });
    if (answer.ok) return { ...item, action, outcome: answer.value.outcome, message: answer.value.message };
    if (!sent) tellServiceAction(parts, panelId, target, action, 'failed', answer.error.message);
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
      const start = (): HeldRun => {
        const pool = new WorkPool<ServiceActionItem, PanelTypes, ServiceActionItemResult>({
          limit: SERVICE_ACTIONS_AT_ONCE,
          perKey: SERVICE_ACTIONS_PER_PANEL,
          keyOf: (item) => item.panelId,
          prepare: readTypes,
          // The signal is left unread: a write already sent finishes, so its outcome is known.
          runOne: async (item, panel) => {
            const result = await runItem(item, action, panel, () => step(item, 'sent'));
            step(item, result.outcome, result.message);
            return result;
          },
          // Never sent, so not in the activity log: it holds what was sent to a panel.
          cancelled: (item) => {
            step(item, 'cancelled', CANCELLED_MESSAGE);
            return { ...item, action, outcome: 'cancelled', message: CANCELLED_MESSAGE };
          },
        });
        const held: HeldRun = {
          pool,
          action,
          steps,
          cancelling: false,
          started: false,
          cancel: () => {
            held.cancelling = true;
            pool.cancel();
          },
        };
        return held;
      };
      // Held before the first wait: a second call meanwhile is refused, a cancel meanwhile counts.
      const results = await runs.hold(start, async (held) => {
        current = held;
        try {
          const { registry } = await state();
          const unknown = new Set(asked.flatMap(({ panelId }) => (registry.get(panelId) ? [] : [panelId])));
          if (unknown.size > 0) {
            const which = unknown.size === 1 ? 'a panel of the services chosen is' : `${unknown.size} panels of the services chosen are`;
            throw new PanelError('INVALID_INPUT', `Nothing was sent: ${which} no longer in the list (removed since?).`);
          }
          held.started = true;
          return await held.pool.run(asked);
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
