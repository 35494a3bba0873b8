/**
 * What a panel runs, as the contract says it (`listServices`, `getServerStats`): its projects and
 * services with their state, and the server's load. Derived in main from the panel's answers
 * (electron/core/easypanel/service-answers.ts); the panel's own shapes stop there.
 */

/**
 * A service's state, from the panel's task stats and settings:
 * - `running`: every task it should run runs (actual = desired > 0);
 * - `stopped`: it should run none (desired 0);
 * - `down`: fewer run than should (actual < desired): crashed, or still starting;
 * - `deploying`: a build or deployment is under way (from writes: Paneldeck's own deploy in flight);
 * - `disabled`: switched off in the panel (`enabled: false`);
 * - `unknown`: the panel said nothing of its tasks.
 */
export const SERVICE_STATES = ['running', 'stopped', 'down', 'deploying', 'disabled', 'unknown'] as const;
export type ServiceState = (typeof SERVICE_STATES)[number];

/** A service's Docker tasks: how many run, how many should. */
export interface Replicas {
  actual: number;
  desired: number;
}

export interface ServiceSummary {
  projectName: string;
  name: string;
  /** The panel's word: app, compose, postgres, mysql, mariadb, mongo, redis, box, wordpress, or another it has. */
  type: string;
  state: ServiceState;
  /** Null when the panel reports no tasks for it. */
  replicas: Replicas | null;
}

export interface ServiceList {
  panelId: string;
  /** When main read it, ISO 8601. */
  readAt: string;
  projects: { name: string }[];
  services: ServiceSummary[];
  /** The panel listed more services than Paneldeck shows (`MAX_LISTED_SERVICES`); those past it are left out. */
  truncated: boolean;
  /**
   * Why the states are `unknown` though the list was read: the task stats could not be (the
   * panel's words, shortened, no secret). Null when they were.
   */
  taskStatsProblem: string | null;
}

/** Most services a list carries to the window; a panel with more is shown up to here. */
export const MAX_LISTED_SERVICES = 10_000;

/** The server's load. Each figure is null when the panel did not say it (or said something that is no number). */
export interface ServerStats {
  panelId: string;
  readAt: string;
  /** The Easypanel version (`"2.32.2"`), read beside the load, else the last one read. */
  version: string | null;
  uptimeSeconds: number | null;
  cpuPercent: number | null;
  memory: { usedMb: number | null; totalMb: number | null };
  disk: { usedGb: number | null; totalGb: number | null };
}
