/**
 * A service's deployments as the contract gives them (`listDeployments`, `getDeploymentLog`): the
 * panel's actions history (builds, deployments, starts, stops, ...) and the build log of one.
 * Derived in main from the panel's answers (electron/core/easypanel/deployment-answers.ts).
 */

/**
 * Where a deployment stands. `running`: not finished yet (a build follows it); `done`, `error`,
 * `killed`: the panel's own ends; `unknown`: the panel said something else, or nothing.
 */
export const DEPLOYMENT_STATUSES = ['running', 'done', 'error', 'killed', 'unknown'] as const;
export type DeploymentStatus = (typeof DEPLOYMENT_STATUSES)[number];

/** A deployment's id as a panel makes them (Easypanel's are short ids of letters and digits). */
export const DEPLOYMENT_ID_PATTERN = /^[A-Za-z0-9_-]+$/;
export const DEPLOYMENT_ID_MAX = 128;

export interface Deployment {
  id: string;
  /** The panel's word: build, deployment, start, stop, restart, ... (cleaned of control characters). */
  type: string;
  status: DeploymentStatus;
  /** ISO 8601; null when the panel did not say. */
  startedAt: string | null;
  /** ISO 8601; null while it runs, or when the panel did not say. */
  finishedAt: string | null;
  /** The panel marked it `noKill`: it cannot be cancelled (absent otherwise). */
  noKill?: true;
}

export interface DeploymentList {
  panelId: string;
  projectName: string;
  serviceName: string;
  /** When main read it, ISO 8601. */
  readAt: string;
  /** Newest first, as the panel lists them; at most `MAX_LISTED_DEPLOYMENTS`. */
  deployments: Deployment[];
  /** The panel listed more than Paneldeck keeps; the oldest were left out. */
  truncated: boolean;
}

/** How many deployments a list asks the panel for, and the most it keeps whatever the panel sends. */
export const LISTED_DEPLOYMENTS = 50;
export const MAX_LISTED_DEPLOYMENTS = 200;

/** The most of a build log main keeps and sends to the window: its last 2 MiB (of text). */
export const DEPLOYMENT_LOG_MAX_CHARS = 2 * 1024 * 1024;

export interface DeploymentLog {
  panelId: string;
  deploymentId: string;
  readAt: string;
  status: DeploymentStatus;
  /**
   * The build log, lines joined by "\n": colour codes removed, other control characters shown as
   * U+FFFD, each line capped, a line holding the panel's token replaced.
   */
  log: string;
  /** The log was longer than `DEPLOYMENT_LOG_MAX_CHARS`: only its end is here (or a line was cut). */
  truncated: boolean;
}

/** The answer of `cancelDeployment` when the panel did not refuse: cancelled, or no answer came (`unknown`). */
export interface DeploymentCancelResult {
  panelId: string;
  deploymentId: string;
  outcome: 'done' | 'unknown';
  /** Why the outcome is not known, for the operator; null when done. */
  message: string | null;
}
