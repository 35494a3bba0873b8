import { SERVICE_TYPES, type ServiceRecord, type ServicesState, type ServiceType } from './services-state.ts';

/**
 * Projects and services for the demo panel and for tests that want many: every type appears, and a
 * few services are stopped, down or disabled, the same ones on every run.
 */

const PROJECT_NAMES = ['shop', 'blog', 'crm', 'wiki', 'analytics', 'mail', 'chat', 'status', 'docs', 'forum'];

/** The name a service of the type gets in a demo project. */
const SERVICE_NAMES: Readonly<Record<ServiceType, string>> = {
  app: 'web',
  compose: 'stack',
  postgres: 'db',
  mysql: 'mysql',
  mariadb: 'mariadb',
  mongo: 'mongo',
  redis: 'cache',
  box: 'tools',
  wordpress: 'site',
};

export interface DemoSeed {
  projects: number;
  /** Default 4. Past the nine types, names take a number (`web-2`). */
  servicesPerProject?: number;
}

/** Fills the state; the n-th service overall (from 0) is down when n % 7 is 3, stopped when n % 11 is 5, disabled when n % 13 is 8. */
export function seedDemoServices(state: ServicesState, { projects, servicesPerProject = 4 }: DemoSeed): void {
  let count = 0;
  for (let project = 0; project < projects; project++) {
    const projectName = PROJECT_NAMES[project] ?? `project-${project + 1}`;
    state.addProject(projectName);
    for (let index = 0; index < servicesPerProject; index++) {
      // Each project starts one type further on, so that five projects of four show all nine types.
      const type = SERVICE_TYPES[(project * servicesPerProject + index) % SERVICE_TYPES.length] as ServiceType;
      const round = Math.floor(index / SERVICE_TYPES.length);
      const name = round === 0 ? SERVICE_NAMES[type] : `${SERVICE_NAMES[type]}-${round + 1}`;
      state.addService({ projectName, name, type });
      if (count % 7 === 3) state.crashService(projectName, name);
      else if (count % 11 === 5) state.setReplicas(projectName, name, { actual: 0, desired: 0 });
      else if (count % 13 === 8) {
        state.setEnabled(projectName, name, false);
        state.setReplicas(projectName, name, { actual: 0, desired: 0 });
      }
      count++;
    }
  }
}

/** What a service is doing, in the words the demo panel prints (it derives no more than it needs). */
function stateWords(service: ServiceRecord): string {
  const { replicas } = service;
  const counts = replicas === null ? 'no task stats' : `${replicas.actual}/${replicas.desired}`;
  if (!service.enabled) return `disabled, ${counts}`;
  if (replicas === null) return counts;
  if (replicas.desired === 0) return `stopped, ${counts}`;
  return `${replicas.actual < replicas.desired ? 'down' : 'running'}, ${counts}`;
}

/** The projects and services, one project a line, and the server's load: what the demo panel prints. */
export function describeServices(state: ServicesState): string[] {
  const lines = state.projects().map((project) => {
    const listed = state.services().filter((service) => service.projectName === project.name);
    return `${project.name}: ${listed.map((service) => `${service.name} (${service.type}, ${stateWords(service)})`).join('; ') || 'no services'}`;
  });
  const load = state.systemLoad();
  const days = Math.floor(load.uptimeSeconds / 86_400);
  const hours = Math.floor((load.uptimeSeconds % 86_400) / 3600);
  lines.push(
    `server load: CPU ${load.cpuPercent} %, memory ${load.memory.usedMb}/${load.memory.totalMb} MB, ` +
      `disk ${load.disk.usedGb}/${load.disk.totalGb} GB, up ${days} d ${hours} h`,
  );
  return lines;
}
