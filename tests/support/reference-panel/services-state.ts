/**
 * The panel's projects and services, their task stats and the server's load: the state behind
 * `listProjectsAndServices`, `getDockerTaskStats` and the system stats reads. Tests set it through
 * the methods here; writes (start, stop, deploy, in their own module) change it through the same
 * methods (`setReplicas`, `setEnabled`, `service`), so that reads and writes share one model.
 * To add writes: a module beside `service-reads.ts` with its part of the operation table and its
 * `perform`, joined in `operations.ts`; state of its own (deployments, build logs, the actions
 * history) in its own module, held beside this one in `createPanelState`.
 */

/** The service types Easypanel lists (docs/easypanel-api.md: app, compose, the databases, box, wordpress). */
export const SERVICE_TYPES = ['app', 'compose', 'postgres', 'mysql', 'mariadb', 'mongo', 'redis', 'box', 'wordpress'] as const;
export type ServiceType = (typeof SERVICE_TYPES)[number];

/** What Easypanel allows as a project or service name. */
export const NAME_PATTERN = /^[a-z0-9-_]+$/;

/** A service's Docker tasks: how many run, how many should. */
export interface Replicas {
  actual: number;
  desired: number;
}

export interface ServiceRecord {
  projectName: string;
  name: string;
  type: ServiceType;
  /** The service's setting (a database's enable/disable), not whether it runs: that is `replicas`. */
  enabled: boolean;
  createdAt: string;
  /** Its task stats; null when the panel has none for it (never deployed, or not a swarm service). */
  replicas: Replicas | null;
  /** An app's domains, as its settings hold them (`inspectAppService`); none for other types. */
  domains: AppDomain[];
}

/** One domain of an app, as `inspectAppService` answers it (docs/easypanel-api.md). */
export interface AppDomain {
  host: string;
  https: boolean;
  port: number;
  path: string;
}

export interface NewService {
  projectName: string;
  name: string;
  type: ServiceType;
  /** Default true. */
  enabled?: boolean;
  /** Default one task running of one wanted. */
  replicas?: Replicas | null;
  /** An app's domains; default none. */
  domains?: AppDomain[];
}

/** The server's load as a test sets it; the wire answer writes memory and disk as strings. */
export interface SystemLoad {
  uptimeSeconds: number;
  cpuPercent: number;
  cpuCount: number;
  loadAverage: [number, number, number];
  memory: { usedMb: number; totalMb: number };
  disk: { usedGb: number; totalGb: number };
  network: { inputMb: number; outputMb: number };
}

/** The reads whose whole answer a test may replace (`setRawAnswer`) with anything, hostile or not. */
export type ServiceReadRoute =
  | 'listProjectsAndServices'
  | 'getDockerTaskStats'
  | 'getSystemStats'
  | 'getMetricsSettings'
  | 'inspectAppService';

const DEFAULT_LOAD: SystemLoad = {
  uptimeSeconds: 1_209_600 + 3 * 3600 + 25 * 60,
  cpuPercent: 12.5,
  cpuCount: 4,
  loadAverage: [0.52, 0.41, 0.38],
  memory: { usedMb: 3120.44, totalMb: 7976.26 },
  disk: { usedGb: 31.2, totalGb: 78.63 },
  network: { inputMb: 1234.5, outputMb: 987.6 },
};

/** A figure as Easypanel writes memory and disk: a string with two decimals. */
const figure = (value: number) => value.toFixed(2);
const percent = (used: number, total: number) => figure(total > 0 ? (used / total) * 100 : 0);

/** The key of a service in the task stats: `<project>_<service>`, as Easypanel writes it. */
export const taskKey = (projectName: string, serviceName: string) => `${projectName}_${serviceName}`;

function validateName(what: string, name: string): void {
  if (!NAME_PATTERN.test(name)) throw new Error(`${what} "${name}" does not match ${NAME_PATTERN}`);
}

export type ServicesState = ReturnType<typeof createServicesState>;

export function createServicesState(clock: () => number = Date.now) {
  const projects = new Map<string, { name: string; createdAt: string }>();
  // Keyed by `project/service`: a slash is in no name, where `_` (the task stats' key) is.
  const services = new Map<string, ServiceRecord>();
  let load: SystemLoad = structuredClone(DEFAULT_LOAD);
  const rawAnswers = new Map<ServiceReadRoute, unknown>();
  // Easypanel's paid metrics stack: off, as on most panels.
  let metricsOn = false;
  const id = (projectName: string, name: string) => `${projectName}/${name}`;

  const service = (projectName: string, name: string): ServiceRecord | undefined => services.get(id(projectName, name));
  /** The service, or a thrown error naming it: for test-facing setters, where a typo must be loud. */
  const existing = (projectName: string, name: string): ServiceRecord => {
    const found = service(projectName, name);
    if (!found) throw new Error(`no service ${projectName}/${name}`);
    return found;
  };

  const addProject = (name: string) => {
    validateName('project', name);
    if (!projects.has(name)) projects.set(name, { name, createdAt: new Date(clock()).toISOString() });
  };

  return {
    addProject,
    /** Adds a service (and its project when new); throws when it exists already. */
    addService: (spec: NewService): ServiceRecord => {
      validateName('service', spec.name);
      addProject(spec.projectName);
      if (service(spec.projectName, spec.name)) throw new Error(`service ${spec.projectName}/${spec.name} exists`);
      const record: ServiceRecord = {
        projectName: spec.projectName,
        name: spec.name,
        type: spec.type,
        enabled: spec.enabled ?? true,
        createdAt: new Date(clock()).toISOString(),
        replicas: spec.replicas === undefined ? { actual: 1, desired: 1 } : spec.replicas && { ...spec.replicas },
        domains: (spec.domains ?? []).map((domain) => ({ ...domain })),
      };
      services.set(id(spec.projectName, spec.name), record);
      return record;
    },
    removeService: (projectName: string, name: string) => void services.delete(id(projectName, name)),
    /** Removes the project and its services. */
    removeProject: (name: string) => {
      projects.delete(name);
      for (const [key, record] of services) if (record.projectName === name) services.delete(key);
    },
    projects: () => [...projects.values()],
    services: () => [...services.values()],
    /** The service's record (live: a write may change it), or undefined. */
    service,
    /** Its task stats from now on; null: the panel reports none for it. */
    setReplicas: (projectName: string, name: string, replicas: Replicas | null) => {
      existing(projectName, name).replicas = replicas && { ...replicas };
    },
    /** Its tasks fail: none runs of at least one wanted (actual < desired). */
    crashService: (projectName: string, name: string) => {
      const record = existing(projectName, name);
      record.replicas = { actual: 0, desired: Math.max(1, record.replicas?.desired ?? 1) };
    },
    /** All its wanted tasks run again. */
    recoverService: (projectName: string, name: string) => {
      const record = existing(projectName, name);
      const desired = Math.max(1, record.replicas?.desired ?? 1);
      record.replicas = { actual: desired, desired };
    },
    /** An app's domains from now on. */
    setDomains: (projectName: string, name: string, domains: AppDomain[]) => {
      existing(projectName, name).domains = domains.map((domain) => ({ ...domain }));
    },
    setEnabled: (projectName: string, name: string, enabled: boolean) => {
      existing(projectName, name).enabled = enabled;
    },
    systemLoad: (): SystemLoad => structuredClone(load),
    /** Changes the given parts of the server's load. */
    setSystemLoad: (change: Partial<SystemLoad>) => {
      load = { ...load, ...structuredClone(change) };
    },
    /** Turns the panel's metrics stack on or off (`getMetricsSettings` says which). */
    setMetrics: (on: boolean) => {
      metricsOn = on;
    },
    /** Answers the read with this body (inside the route's envelope) instead of the state; undefined restores it. */
    setRawAnswer: (route: ServiceReadRoute, body: unknown) => {
      if (body === undefined) rawAnswers.delete(route);
      else rawAnswers.set(route, body);
    },

    /** The answers on the wire (docs/easypanel-api.md, "What Paneldeck sends with a token, by feature"). */
    answer: (route: ServiceReadRoute, target?: { projectName: string; serviceName: string }): unknown => {
      if (rawAnswers.has(route)) return rawAnswers.get(route);
      switch (route) {
        case 'listProjectsAndServices':
          return {
            projects: [...projects.values()],
            services: [...services.values()].map(({ replicas: _replicas, domains: _domains, ...listed }) => listed),
          };
        case 'inspectAppService': {
          // Part of an app's settings, as docs/easypanel-api.md sketches them: the domains are what is read of it.
          const record = target && service(target.projectName, target.serviceName);
          if (!record) return null;
          const { replicas: _replicas, domains, ...listed } = record;
          return { ...listed, env: '', domains: domains.map((domain) => ({ ...domain })), mounts: [], ports: [] };
        }
        case 'getDockerTaskStats':
          return Object.fromEntries(
            [...services.values()].flatMap((record) =>
              record.replicas === null ? [] : [[taskKey(record.projectName, record.name), { ...record.replicas }]],
            ),
          );
        case 'getMetricsSettings':
          // The fields `updateMetricsSettings` takes, in a real 2.32.2 catalogue.
          return { enabled: metricsOn, retentionType: 'days', retentionValue: 7, scrapeInterval: 15 };
        case 'getSystemStats':
          return {
            uptime: load.uptimeSeconds,
            memInfo: {
              totalMemMb: figure(load.memory.totalMb),
              usedMemMb: figure(load.memory.usedMb),
              usedMemPercentage: percent(load.memory.usedMb, load.memory.totalMb),
            },
            diskInfo: {
              totalGb: figure(load.disk.totalGb),
              usedGb: figure(load.disk.usedGb),
              usedPercentage: percent(load.disk.usedGb, load.disk.totalGb),
            },
            cpuInfo: { usedPercentage: load.cpuPercent, count: load.cpuCount, loadavg: [...load.loadAverage] },
            network: { inputMb: load.network.inputMb, outputMb: load.network.outputMb },
          };
      }
    },
  };
}
