import { PanelError } from '../../../shared/contract/errors.ts';
import { isRecord } from '../../../shared/guards.ts';
import type { ServerLoad } from '../easypanel/server-load.ts';
import { readReplicas } from '../easypanel/service-answers.ts';

/**
 * Whether a check understood what a panel said of its state. The readers of service-answers.ts
 * read any answer as far as they can and never throw, which is right for showing what there is,
 * but a check must not take "nothing readable" for "nothing wrong": an answer that says nothing
 * Paneldeck reads is a problem, so the panel's state is unknown, never OK. Pure.
 */

/**
 * Null when the task stats are what Easypanel answers (`{"<project>_<service>": {actual, desired}}`,
 * counts as numbers or numeric text); else why not. An empty object is a panel with no tasks.
 */
export function taskStatsProblem(answer: unknown): PanelError | null {
  if (!isRecord(answer)) return notUnderstood('task stats', `it sent ${kindOf(answer)}, not a list of services with their tasks`);
  const entries = Object.values(answer);
  const unreadable = entries.filter((value) => readReplicas(value) === null).length;
  if (unreadable === 0) return null;
  return notUnderstood('task stats', `${unreadable} of its ${entries.length} entries are not a count of tasks`);
}

/** Null when the server stats said at least one figure Paneldeck reads; else why not (every figure would be blank). */
export function serverLoadProblem(load: ServerLoad): PanelError | null {
  const figures = [load.uptimeSeconds, load.cpuPercent, load.memory.usedMb, load.memory.totalMb, load.disk.usedGb, load.disk.totalGb];
  if (figures.some((figure) => figure !== null)) return null;
  return notUnderstood('server stats', 'it named no CPU, memory, disk or uptime figure Paneldeck reads');
}

function notUnderstood(what: string, why: string): PanelError {
  return new PanelError('BAD_RESPONSE', `The panel's ${what} were not understood: ${why}.`);
}

/** What an answer is, in a word: never its content (a panel's text is not repeated). */
function kindOf(answer: unknown): string {
  if (answer === null) return 'nothing';
  if (Array.isArray(answer)) return 'a list';
  if (typeof answer === 'string') return 'text';
  return `a ${typeof answer}`;
}
