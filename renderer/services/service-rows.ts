import { SERVICE_STATES, type ServiceList, type ServiceState, type ServiceSummary } from '../../shared/services.ts';
import { formatCount } from '../ui/json-rows.ts';

/** The Services tab's rows: in project then service order, narrowed by the search box. Pure. */

const byProjectThenName = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

/** The services in project order, then by name within a project. */
export function sortServices(services: readonly ServiceSummary[]): ServiceSummary[] {
  return [...services].sort(
    (one, other) => byProjectThenName.compare(one.projectName, other.projectName) || byProjectThenName.compare(one.name, other.name),
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

/**
 * The services every word of `query` is found in (case aside): in the project, the name, the type
 * or the state. An empty query keeps all. `sorted` stays in its order.
 */
export function filterServices(sorted: readonly ServiceSummary[], query: string): readonly ServiceSummary[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return sorted;
  return sorted.filter((service) => {
    const text = `${service.projectName} ${service.name} ${service.type} ${service.state}`.toLowerCase();
    return words.every((word) => text.includes(word));
  });
}

/** How many services are in each state, in the states' own order, leaving out those with none: "18 running, 2 down". */
export function stateCounts(services: readonly ServiceSummary[]): string {
  const counts = new Map<ServiceState, number>();
  for (const service of services) counts.set(service.state, (counts.get(service.state) ?? 0) + 1);
  return SERVICE_STATES.filter((state) => counts.has(state))
    .map((state) => `${formatCount(counts.get(state) ?? 0)} ${state}`)
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
  const projects = [...new Set(list.services.map((one) => one.projectName))].sort(byProjectThenName.compare).slice(0, MOST_SUGGESTED);
  const inProject = list.services.filter((one) => project === '' || one.projectName === project);
  return { projects, services: [...new Set(inProject.map((one) => one.name))].sort(byProjectThenName.compare).slice(0, MOST_SUGGESTED) };
}
