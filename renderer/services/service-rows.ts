import type { ServiceList, ServiceState, ServiceSummary } from '../../shared/services.ts';
import { fold } from '../../shared/text-fold.ts';
import { formatCount } from '../ui/json-rows.ts';
import { madeOnce } from '../../shared/made-once.ts';

/**
 * Service rows as a panel's Services tab and All services both build, search, sort and count them:
 * in project then service order, searched by every word typed (case and accents aside) in the
 * project, the name, the type or the state's words, counted by state with what needs the operator
 * first. What each view adds (All services' panel, its state filter and groups) is in its own
 * module. Pure.
 */

const byProjectThenName = madeOnce(() => new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' }));

/** The services in project order, then by name within a project. */
export function sortServices(services: readonly ServiceSummary[]): ServiceSummary[] {
  return [...services].sort(
    (one, other) => byProjectThenName().compare(one.projectName, other.projectName) || byProjectThenName().compare(one.name, other.name),
  );
}

/** The state as the table words it. */
export const STATE_WORDS: Readonly<Record<ServiceState, string>> = {
  running: 'Running',
  stopped: 'Stopped',
  down: 'Down',
  deploying: 'Deploying',
  disabled: 'Disabled',
  unknown: 'Unknown',
};

/** Words typed for a state beside its own ("down" finds down, "failing" too). */
const STATE_SEARCH: Readonly<Record<ServiceState, string>> = {
  running: 'running up ok',
  stopped: 'stopped',
  down: 'down crashed failing',
  deploying: 'deploying',
  disabled: 'disabled',
  unknown: 'unknown',
};

/** What a search looks in for a service: its project, name, type and state words, folded. */
export function serviceSearchText(service: Pick<ServiceSummary, 'projectName' | 'name' | 'type' | 'state'>): string {
  // Joined, not a template: join makes one flat string, where a template makes a rope that the
  // first search of each row would flatten (over ten thousand rows, a first keystroke twice as slow).
  return [fold(service.projectName), fold(service.name), fold(service.type), STATE_SEARCH[service.state]].join(' ');
}

/** The words of a query, folded; none when only spaces were typed. */
export function searchWords(query: string): string[] {
  return fold(query).split(/\s+/).filter(Boolean);
}

/** Whether a search text holds every word. */
export function containsEvery(text: string, words: readonly string[]): boolean {
  for (const word of words) if (!text.includes(word)) return false;
  return true;
}

/** The Services tab's rows: the services every word of `query` is found in. An empty query keeps all; `sorted` stays in its order. */
export function filterServices(sorted: readonly ServiceSummary[], query: string): readonly ServiceSummary[] {
  const words = searchWords(query);
  if (words.length === 0) return sorted;
  return sorted.filter((service) => containsEvery(serviceSearchText(service), words));
}

/** States in the order a group by state shows them and the counts say them: what needs the operator first. */
export const STATE_ATTENTION_ORDER: readonly ServiceState[] = ['down', 'deploying', 'unknown', 'stopped', 'disabled', 'running'];

/** How many services are in each state, attention first, leaving out states with none. */
export function countStates(services: readonly { state: ServiceState }[]): { state: ServiceState; count: number }[] {
  // A counter per state in a plain record: no map lookups over ten thousand rows.
  const counts: Record<ServiceState, number> = { down: 0, deploying: 0, unknown: 0, stopped: 0, disabled: 0, running: 0 };
  for (const service of services) counts[service.state]++;
  return STATE_ATTENTION_ORDER.filter((state) => counts[state] > 0).map((state) => ({ state, count: counts[state] }));
}

/** The counts as one line: "2 down, 18 running"; empty when there is no service. */
export function stateCounts(services: readonly { state: ServiceState }[]): string {
  return countStates(services)
    .map(({ state, count }) => `${formatCount(count)} ${state}`)
    .join(', ');
}

/** "1/1", or a dash when the panel reported no tasks. */
export function replicasText(service: Pick<ServiceSummary, 'replicas'>): string {
  return service.replicas === null ? '–' : `${service.replicas.actual}/${service.replicas.desired}`;
}

/** Offered names at most: a datalist of thousands costs the window more than it helps to type. */
const MOST_SUGGESTED = 300;

/** The panel's project names, and the services of `project` (every service while none is typed), as the last list read them. */
export function pickerSuggestions(list: ServiceList | null, project: string): { projects: string[]; services: string[] } {
  if (!list) return { projects: [], services: [] };
  const projects = [...new Set(list.services.map((one) => one.projectName))].sort(byProjectThenName().compare).slice(0, MOST_SUGGESTED);
  const inProject = list.services.filter((one) => project === '' || one.projectName === project);
  return { projects, services: [...new Set(inProject.map((one) => one.name))].sort(byProjectThenName().compare).slice(0, MOST_SUGGESTED) };
}
