import { randomBytes } from 'node:crypto';
import type { ServicesState } from './services-state.ts';

/**
 * What the panel's writes leave behind: the actions history (`actions.listActions`, `getAction`
 * with its log), and the switches a test sets: how long a deploy takes, a deploy that fails, an
 * answer lost after the write was carried out. The services' own state (task stats, `enabled`)
 * stays in services-state.ts, changed through its methods.
 */

/** docs/easypanel-api.md: actions of type build, deployment, start, stop, ...; status done, error, killed. */
export type ActionType = 'build' | 'deployment' | 'start' | 'stop' | 'restart' | 'enable' | 'disable' | 'backup' | 'volumeBackup';
export type ActionStatus = 'running' | 'done' | 'error' | 'killed';

export interface ActionRecord {
  id: string;
  projectName: string;
  serviceName: string;
  type: ActionType;
  status: ActionStatus;
  createdAt: string;
  /** Null while it runs. */
  finishedAt: string | null;
  /** The build log, a line at a time as the deploy goes. */
  log: string;
  /** Who started it, as Easypanel's answer says (docs/easypanel-api.md). */
  userEmail: string | null;
  isApiAction: boolean;
  isSystemAction: boolean;
  /** Easypanel's own flag: the action cannot be cancelled (`killAction` refuses it). */
  noKill: boolean;
}

/** Who started an action: the panel's user of the request's token, through the dashboard's session or an API token. */
export interface ActionBy {
  userEmail: string | null;
  isApiAction: boolean;
  isSystemAction: boolean;
}

/** An action a test starts itself: as if a colleague had done it in the dashboard. */
export const DASHBOARD_USER: ActionBy = { userEmail: 'colleague@paneldeck.test', isApiAction: false, isSystemAction: false };

/** The lines a deploy writes into its log, one per step of its time. */
export const BUILD_LOG_LINES = [
  '#1 [internal] load build definition from Dockerfile',
  '#2 [internal] load metadata for docker.io/library/node:22-alpine',
  '#3 [1/4] FROM docker.io/library/node:22-alpine',
  '#4 [2/4] COPY package.json package-lock.json ./',
  '#5 [3/4] RUN npm ci',
  '#6 [4/4] COPY . .',
  '#7 exporting to image',
  'Rolling out the new version',
] as const;

/** A deploy that is made to fail: the log's last line and the panel's answer say `message`. */
export interface DeployFailure {
  message: string;
}

export type ServiceActionsState = ReturnType<typeof createServiceActionsState>;

export function createServiceActionsState(services: ServicesState, clock: () => number = Date.now) {
  const actions: ActionRecord[] = [];
  let deployMs = 200;
  const failures = new Map<string, DeployFailure>();
  /** Routes (2.33 names, `deployAppService`) whose next answer is lost after the write is done; `*`: any write. */
  const losing = new Set<string>();
  const rawAnswers = new Map<'listActions' | 'getAction', unknown>();
  /** While set, a deploy that wrote its log waits for it before it ends (`holdDeploys`). */
  let held: Promise<void> | null = null;
  const killWaiters = new Map<string, (() => void)[]>();
  const key = (projectName: string, serviceName: string) => `${projectName}/${serviceName}`;
  const now = () => new Date(clock()).toISOString();

  return {
    /** Newest first. */
    actions: () => [...actions].reverse(),
    action: (id: string): ActionRecord | undefined => actions.find((action) => action.id === id),
    /** Starts an action record; the caller finishes it with `finishAction`. */
    beginAction: (projectName: string, serviceName: string, type: ActionType, by: ActionBy = DASHBOARD_USER): ActionRecord => {
      const record: ActionRecord = {
        ...by,
        id: randomBytes(12).toString('hex'),
        projectName,
        serviceName,
        type,
        status: 'running',
        createdAt: now(),
        finishedAt: null,
        log: '',
        noKill: false,
      };
      actions.push(record);
      return record;
    },
    finishAction: (record: ActionRecord, status: Exclude<ActionStatus, 'running'>) => {
      if (record.status === 'killed') return;
      record.status = status;
      record.finishedAt = now();
    },
    /** Ends a running action as killed (`killAction`): its deploy stops at its next step, or at once while held. */
    kill: (record: ActionRecord) => {
      record.status = 'killed';
      record.finishedAt = now();
      for (const wake of killWaiters.get(record.id) ?? []) wake();
      killWaiters.delete(record.id);
    },
    /** Settles when the action is killed. */
    killed: (record: ActionRecord): Promise<void> =>
      record.status === 'killed'
        ? Promise.resolve()
        : new Promise<void>((resolve) => killWaiters.set(record.id, [...(killWaiters.get(record.id) ?? []), resolve])),
    /** How long each deploy takes from now on (its answer waits that long, as a real one does). Default 200 ms. */
    setDeployTime: (ms: number) => {
      deployMs = ms;
    },
    deployTime: () => deployMs,
    /**
     * Deploys from now on write their log, then stay running until the function returned is called:
     * a test decides when a build ends, whatever a loaded machine's timers do.
     */
    holdDeploys: (): (() => void) => {
      let release: () => void = () => {};
      held = new Promise<void>((resolve) => (release = resolve));
      return () => {
        held = null;
        release();
      };
    },
    /** What a deploy waits for before it ends: nothing unless `holdDeploys` is in force. */
    deployHeld: (): Promise<void> => held ?? Promise.resolve(),
    /** The next deploys of the service fail with `message` (null: they succeed again). */
    failDeploys: (projectName: string, serviceName: string, failure: DeployFailure | null) => {
      services.service(projectName, serviceName) ?? assertMissing(projectName, serviceName);
      if (failure) failures.set(key(projectName, serviceName), failure);
      else failures.delete(key(projectName, serviceName));
    },
    deployFailure: (projectName: string, serviceName: string) => failures.get(key(projectName, serviceName)) ?? null,
    /**
     * The next write by `route` (a 2.33 name such as `stopAppService`; `*` for any write) is carried
     * out, then its connection is closed without an answer: to the client, a lost answer. A deploy
     * loses its answer as it starts, and goes on to its end.
     */
    loseNextAnswer: (route: string) => void losing.add(route),
    /** Answers the read with this body (inside the route's envelope) instead of the history; undefined restores it. */
    setRawAnswer: (route: 'listActions' | 'getAction', body: unknown) => {
      if (body === undefined) rawAnswers.delete(route);
      else rawAnswers.set(route, body);
    },
    /** The body set for the read, if any: `{ body }`, so that a raw `null` is one too. */
    rawAnswer: (route: 'listActions' | 'getAction'): { body: unknown } | null =>
      rawAnswers.has(route) ? { body: rawAnswers.get(route) } : null,
    /** Whether this write's answer is to be lost (and the switch used up). */
    takeLostAnswer: (route: string): boolean => {
      for (const candidate of [route, '*']) {
        if (losing.delete(candidate)) return true;
      }
      return false;
    },
  };
}

function assertMissing(projectName: string, serviceName: string): never {
  throw new Error(`no service ${projectName}/${serviceName}`);
}
