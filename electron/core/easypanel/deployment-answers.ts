import {
  DEPLOYMENT_ID_MAX,
  DEPLOYMENT_ID_PATTERN,
  DEPLOYMENT_LOG_MAX_CHARS,
  DEPLOYMENT_STATUSES,
  type Deployment,
  type DeploymentStatus,
  MAX_LISTED_DEPLOYMENTS,
} from '../../../shared/deployments.ts';
import { isRecord } from '../../../shared/guards.ts';
import { ACTION_EMAIL_MAX, PANEL_ACTIONS_KEPT, type PanelAction } from '../../../shared/timeline.ts';
import type { SecretMatcher } from '../secrets/secret-match.ts';
import { cleanName } from './service-answers.ts';
import { cleanLine, HIDDEN_LINE } from './service-log-socket.ts';

/**
 * Reads a panel's actions (`actions.listActions`, `actions.getAction`) into the contract's shapes
 * (shared/deployments.ts), taking nothing on trust: an item without a usable id is left out, a
 * status the contract does not know is `unknown`, a time that is no time is null, never a throw.
 * Only the top level of each item is looked at, and lists stop at a limit. Pure: no I/O.
 */

/** Longest type word kept; Easypanel's are single words. */
const TYPE_MAX = 40;

/** The action list of an answer: Easypanel answers an array; `{items}` or `{actions}` (a paged answer) is read too, as a guess. */
function actionItems(answer: unknown): readonly unknown[] {
  if (Array.isArray(answer)) return answer;
  if (!isRecord(answer)) return [];
  for (const key of ['items', 'actions']) {
    const items = answer[key];
    if (Array.isArray(items)) return items;
  }
  return [];
}

/** The contract's status for the panel's word; any other word (or none) is `unknown`. */
export function readStatus(value: unknown): DeploymentStatus {
  return typeof value === 'string' && (DEPLOYMENT_STATUSES as readonly string[]).includes(value) && value !== 'unknown'
    ? (value as DeploymentStatus)
    : 'unknown';
}

/** A time as ISO 8601: from ISO text or epoch milliseconds; null for anything else. */
export function readTime(value: unknown): string | null {
  let ms: number;
  if (typeof value === 'number') ms = value;
  else if (typeof value === 'string' && value.length <= 64) ms = Date.parse(value);
  else return null;
  if (!Number.isFinite(ms)) return null;
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** An action's id as the contract accepts it back in `getDeploymentLog`, or null. */
function readId(value: unknown): string | null {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return String(value);
  return typeof value === 'string' && value.length <= DEPLOYMENT_ID_MAX && DEPLOYMENT_ID_PATTERN.test(value) ? value : null;
}

/** One action of the list; a type holding the panel's token (`holdsToken`) is not shown. */
export function readDeployment(item: unknown, holdsToken: SecretMatcher = () => false): Deployment | null {
  if (!isRecord(item)) return null;
  const id = readId(item.id);
  if (id === null || holdsToken(id)) return null;
  // Looked for before the type is shortened: a cut token is no longer the token to the matcher.
  const type = typeof item.type === 'string' && holdsToken(item.type) ? null : cleanName(item.type, TYPE_MAX);
  return {
    id,
    type: type ?? 'unknown',
    status: readStatus(item.status),
    startedAt: readTime(item.createdAt ?? item.startedAt),
    finishedAt: readTime(item.finishedAt),
    ...(item.noKill === true ? { noKill: true as const } : {}),
  };
}

/** The deployments of a `listActions` answer, newest first as listed, at most `limit`. */
export function readDeployments(
  answer: unknown,
  holdsToken: SecretMatcher = () => false,
  limit = MAX_LISTED_DEPLOYMENTS,
): { deployments: Deployment[]; truncated: boolean } {
  const deployments: Deployment[] = [];
  for (const item of actionItems(answer)) {
    const deployment = readDeployment(item, holdsToken);
    if (deployment === null) continue;
    if (deployments.length >= limit) return { deployments, truncated: true };
    deployments.push(deployment);
  }
  return { deployments, truncated: false };
}

/**
 * The panel's actions of a `listActions` asked for the whole panel (no service): each read as a
 * deployment is (`readDeployment`), plus its service and who started it, names and e-mail cut and
 * cleaned, an e-mail holding the token left out; at most `limit`, newest first as listed.
 */
export function readPanelActions(answer: unknown, holdsToken: SecretMatcher = () => false, limit = PANEL_ACTIONS_KEPT): PanelAction[] {
  const actions: PanelAction[] = [];
  for (const item of actionItems(answer)) {
    if (actions.length >= limit) break;
    const deployment = readDeployment(item, holdsToken);
    if (deployment === null || !isRecord(item)) continue;
    const email = typeof item.userEmail === 'string' && !holdsToken(item.userEmail) ? cleanName(item.userEmail, ACTION_EMAIL_MAX) : null;
    actions.push({
      ...deployment,
      projectName: cleanName(item.projectName),
      serviceName: cleanName(item.serviceName),
      userEmail: email,
      isApiAction: item.isApiAction === true,
      isSystemAction: item.isSystemAction === true,
    });
  }
  return actions;
}

/** Types of action that build or roll out a service: an unfinished one makes the service `deploying`. */
const DEPLOY_TYPES = new Set(['build', 'deployment', 'deploy']);

/**
 * The services (`<project>/<service>` keys, names as the panel wrote them) with a build or
 * deployment running in a `listActions` answer: at most `limit` items are looked at.
 */
export function runningDeploys(answer: unknown, limit = MAX_LISTED_DEPLOYMENTS): Set<string> {
  const running = new Set<string>();
  for (const item of actionItems(answer).slice(0, limit)) {
    if (!isRecord(item) || readStatus(item.status) !== 'running') continue;
    if (typeof item.type !== 'string' || !DEPLOY_TYPES.has(item.type)) continue;
    if (typeof item.projectName === 'string' && typeof item.serviceName === 'string')
      running.add(deployKey(item.projectName, item.serviceName));
  }
  return running;
}

/** The key `runningDeploys` uses: a slash is in no name Easypanel allows. */
export const deployKey = (projectName: string, serviceName: string) => `${projectName}/${serviceName}`;

/**
 * A build log as the window may get it: its last `maxChars` at most (from a line's start), every
 * line cleaned (`cleanLine`) and a line holding the token (`holdsToken`) replaced.
 */
export function readBuildLog(
  value: unknown,
  holdsToken: SecretMatcher,
  maxChars = DEPLOYMENT_LOG_MAX_CHARS,
): { log: string; truncated: boolean } {
  if (typeof value !== 'string') return { log: '', truncated: false };
  let text = value;
  let truncated = false;
  if (text.length > maxChars) {
    truncated = true;
    const cutAt = text.length - maxChars;
    const lineStart = text.indexOf('\n', cutAt);
    text = lineStart === -1 || lineStart - cutAt > maxChars / 4 ? text.slice(cutAt) : text.slice(lineStart + 1);
  }
  // One scan of the whole text first: nearly every log holds no token, and then no line needs its own.
  const anyToken = holdsToken(text);
  const lines = text.replace(/\n$/, '').split('\n');
  for (let index = 0; index < lines.length; index++) {
    const raw = lines[index] ?? '';
    if (anyToken && holdsToken(raw)) {
      lines[index] = HIDDEN_LINE;
      continue;
    }
    const { line, cut } = cleanLine(raw);
    lines[index] = line;
    if (cut) truncated = true;
  }
  return { log: text === '' ? '' : lines.join('\n'), truncated };
}
