import { type CallContext, data, fail, type Operation, type Outcome } from './outcomes.ts';

/**
 * Easypanel's own update (`update.update`, `update/update`, `POST update`): the panel answers,
 * then restarts. While it is away every request gets its proxy's 502 page; it comes back on the
 * new version (and that version's generation), its sessions and API tokens intact. What the
 * update does is the test's to say (`setUpdate`): how long it stays away, whether it refuses,
 * loses its answer, or comes back on the version it had.
 */

export type UpdateRoute = 'update';

export const UPDATE_OPERATIONS: readonly Operation[] = [
  { route: 'update', kind: 'mutation', trpc: 'update.update', rpc: 'update/update', public: 'update' },
];

export interface PanelUpdate {
  /** The version it comes back on. */
  to: string;
  /**
   * What the call does: answers, then restarts (`restart`, the default); restarts without an
   * answer, the connection closed (`lost`); refuses with a 500 and stays as it is (`refuse`).
   */
  answer?: 'restart' | 'lost' | 'refuse';
  /** How long it is away, in ms; `held` (the default): until `finishRestart()`. */
  awayMs?: number | 'held';
  /** It comes back on the version it had: the update did not take. */
  sameVersion?: boolean;
}

export type UpdateState = ReturnType<typeof createUpdateState>;

export function createUpdateState(initial: PanelUpdate | null) {
  let plan = initial;
  let away = false;
  let finish: (() => void) | null = null;
  let comeBack: (version: string) => void = () => undefined;
  let restarts = 0;
  const waiting = { away: new Set<() => void>(), back: new Set<() => void>() };
  const tell = (event: 'away' | 'back') => {
    for (const resolve of waiting[event]) resolve();
    waiting[event].clear();
  };
  return {
    plan: () => plan,
    setPlan: (next: PanelUpdate | null) => {
      plan = next;
    },
    /** Whether the panel is restarting: every request then gets a 502. */
    away: () => away,
    restarts: () => restarts,
    /** What the server does when the panel is back: the version, and its generation. */
    onComeBack: (apply: (version: string) => void) => {
      comeBack = apply;
    },
    /** Starts the restart from `version`. */
    restart: (version: string) => {
      const current = plan;
      if (current === null || away) return;
      away = true;
      restarts++;
      const to = current.sameVersion ? version : current.to;
      finish = () => {
        if (!away) return;
        away = false;
        finish = null;
        comeBack(to);
        tell('back');
      };
      const awayMs = current.awayMs ?? 'held';
      if (awayMs !== 'held') setTimeout(() => finish?.(), awayMs).unref();
      tell('away');
    },
    /** Ends a restart held (`awayMs: 'held'`): the panel answers again, on its new version. */
    finishRestart: () => finish?.(),
    /** Resolves at the next time the panel goes away, or comes back. */
    next: (event: 'away' | 'back') => new Promise<void>((resolve) => waiting[event].add(resolve)),
  };
}

export function isUpdateRoute(route: string): route is UpdateRoute {
  return route === 'update';
}

/** The update: refused without a plan (no newer version to go to), else answered and restarted. */
export function performUpdate(_route: UpdateRoute, _input: unknown, { state, request }: CallContext): Outcome {
  const plan = state.update.plan();
  if (plan === null) return fail('BAD_REQUEST', 'There is no update to install.');
  if (plan.answer === 'refuse') return fail('INTERNAL_SERVER_ERROR', 'Update failed: the new image could not be pulled.');
  const from = state.version() ?? '0.0.0';
  if (plan.answer === 'lost') {
    state.update.restart(from);
    request.socket.destroy();
    return data(undefined);
  }
  // The next turn: the answer is on its way when the panel goes away.
  setImmediate(() => state.update.restart(from));
  return data(undefined);
}
