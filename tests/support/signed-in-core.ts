import { createCore, type Core, type CoreOptions } from '../../electron/core/index.ts';
import type { PanelEvent } from '../../shared/contract/events.ts';
import { testEncryption } from './helpers.ts';
import { DEMO_USER, type PanelStyle, type ReferencePanel, type ServiceType, startReferencePanel } from './reference-panel/server.ts';

/** Easypanel's three generations, as the reference panel speaks them. */
export const EASYPANEL_GENERATIONS: readonly Exclude<PanelStyle, 'simple'>[] = ['trpc', 'rpc', 'public'];

/** A reference panel of each generation, by style; close them with `closeAll`. */
export async function startGenerations(): Promise<Map<string, ReferencePanel>> {
  const panels = new Map<string, ReferencePanel>();
  for (const style of EASYPANEL_GENERATIONS) panels.set(style, await startReferencePanel({ style }));
  return panels;
}

export function closeAll(panels: Map<string, ReferencePanel>): Promise<unknown> {
  return Promise.all([...panels.values()].map((panel) => panel.close()));
}

export interface SignedInCore {
  core: Core;
  /** Every event the core sent the window, in order. */
  events: PanelEvent[];
  id: string;
  /** The token the panel issued for the log in. */
  token: string;
  /** What the log in answered (to look for the token in). */
  loggedIn: unknown;
}

type CoreTestOptions = Partial<Omit<CoreOptions, 'dataDir' | 'emit'>>;

/** A core in `dataDir` (requests time out after 3 s unless `options` say) whose events are kept. */
export function coreWithEvents(dataDir: string, options: CoreTestOptions = {}): { core: Core; events: PanelEvent[] } {
  const events: PanelEvent[] = [];
  const core = createCore({
    dataDir,
    encryption: testEncryption(),
    timeoutMs: 3000,
    ...options,
    emit: (event) => events.push(event),
  });
  return { core, events };
}

/** Leaves the panel with exactly these services (and no request recorded). */
export function onlyServices(panel: ReferencePanel, ...services: { projectName: string; name: string; type: ServiceType }[]): void {
  for (const record of panel.services.services()) panel.services.removeService(record.projectName, record.name);
  for (const one of services) panel.services.addService(one);
  panel.requests.splice(0);
}

/** `coreWithEvents`, with `panel` added and signed in as the demo user. */
export async function openSignedIn(dataDir: string, panel: ReferencePanel, options: CoreTestOptions = {}): Promise<SignedInCore> {
  const { core, events } = coreWithEvents(dataDir, options);
  const { id } = await core.addPanel({ address: panel.url });
  const loggedIn = await core.logIn(id, { email: DEMO_USER.email, password: DEMO_USER.password });
  return { core, events, id, token: panel.issuedTokens().at(-1) ?? '', loggedIn };
}
