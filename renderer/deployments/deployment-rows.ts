import type { Deployment, DeploymentStatus } from '../../shared/deployments.ts';
import { durationText, HOUR_MS, MINUTE_MS } from '../../shared/durations.ts';
import type { ServiceState } from '../../shared/services.ts';

/**
 * How the Deployments tab says a deployment: its status as a word and as the Services tab's
 * mark (colour and shape: a ring turns while it runs, a dot is done, a triangle failed, a square
 * was killed, a diamond is unknown), and how long it took.
 */
export const STATUS_WORDS: Readonly<Record<DeploymentStatus, string>> = {
  running: 'Running',
  done: 'Done',
  error: 'Failed',
  killed: 'Killed',
  unknown: 'Unknown',
};

export const STATUS_MARKS: Readonly<Record<DeploymentStatus, ServiceState>> = {
  running: 'deploying',
  done: 'running',
  error: 'down',
  killed: 'stopped',
  unknown: 'unknown',
};

/** "42 s", "3 min 5 s", "1 h 2 min": a build's length, to the second under an hour. */
export function elapsedText(ms: number): string {
  const seconds = Math.floor(Math.max(0, ms) / 1000);
  if (ms < MINUTE_MS) return `${seconds} s`;
  if (ms < HOUR_MS) return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
  return durationText(ms);
}

/** How long it took, or has run so far; '' when the panel gave no start, or no end of a finished one. */
export function deploymentDuration(deployment: Pick<Deployment, 'status' | 'startedAt' | 'finishedAt'>, nowMs: number): string {
  const started = deployment.startedAt === null ? Number.NaN : Date.parse(deployment.startedAt);
  if (!Number.isFinite(started)) return '';
  if (deployment.finishedAt !== null) return elapsedText(Date.parse(deployment.finishedAt) - started);
  return deployment.status === 'running' ? `${elapsedText(nowMs - started)} so far` : '';
}

/** The log's text as rows; an empty log has none. */
export function logRows(log: string): readonly string[] {
  return log === '' ? [] : log.split('\n');
}
