import { afterEach, beforeEach } from 'node:test';
import type { Core } from '../../electron/core/index.ts';
import type { PanelEvent } from '../../shared/contract/events.ts';
import type { PanelUpgradeResult } from '../../shared/upgrades.ts';
import type { WritePlan } from '../../shared/write-plan.ts';
import { tempDir } from './helpers.ts';
import {
  DEMO_USER,
  type PanelStyle,
  type PanelUpdate,
  type ReferencePanel,
  type ReferencePanelOptions,
  startReferencePanel,
} from './reference-panel/server.ts';
import { coreWithEvents, EASYPANEL_GENERATIONS } from './signed-in-core.ts';

/**
 * Fleets of signed-in reference panels that restart when updated, for the upgrade run's tests
 * (tests/integration/panel-upgrade.test.ts, upgrade-fleet.test.ts): what each panel's update does,
 * and what the servers saw of it in order (each panel's going away and coming back).
 */

export type EasypanelStyle = Exclude<PanelStyle, 'simple'>;

/** The version each generation's update goes to. */
export const NEXT: Readonly<Record<EasypanelStyle, string>> = { trpc: '2.31.0', rpc: '2.33.5', public: '2.36.0' };

/** What happened at the panels, in order: each going away (its update begun) and coming back. */
export type Seen = { what: 'away' | 'back'; panel: number };

export interface UpgradeFleet {
  core: Core;
  plans: WritePlan[];
  events: PanelEvent[];
  ids: string[];
  panels: ReferencePanel[];
  seen: Seen[];
}

export interface UpgradeFleetOptions {
  core?: Parameters<typeof coreWithEvents>[1];
  panel?: (index: number) => ReferencePanelOptions;
}

export type MakeUpgradeFleet = (
  count: number,
  update: (index: number, style: EasypanelStyle) => PanelUpdate | null,
  options?: UpgradeFleetOptions,
) => Promise<UpgradeFleet>;

/** Each test's own folder and panels (closed and removed after it): the fleet maker for the test file. */
export function upgradeFleetPerTest(): MakeUpgradeFleet {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let started: ReferencePanel[] = [];
  beforeEach(async () => {
    dir = await tempDir();
    started = [];
  });
  afterEach(async () => {
    await Promise.all(started.map((panel) => panel.close()));
    await dir.cleanup();
  });
  return (count, update, options) => upgradeFleet(dir.path, started, count, update, options);
}

/**
 * `count` panels (generations in turn) in a core in `dataDir`, each added and signed in, with its
 * update as `update(index)` says; every panel started is pushed to `started` (close them).
 */
async function upgradeFleet(
  dataDir: string,
  started: ReferencePanel[],
  count: number,
  update: (index: number, style: EasypanelStyle) => PanelUpdate | null,
  options: UpgradeFleetOptions = {},
): Promise<UpgradeFleet> {
  const { core, plans, events } = coreWithEvents(dataDir, { upgrades: { returnPollMs: 10, returnDeadlineMs: 20_000 }, ...options.core });
  const seen: Seen[] = [];
  const ids: string[] = [];
  const panels: ReferencePanel[] = [];
  for (let index = 0; index < count; index++) {
    const style = EASYPANEL_GENERATIONS[index % EASYPANEL_GENERATIONS.length]!;
    const panel = await startReferencePanel({
      style,
      updateAvailable: true,
      update: update(index, style) ?? undefined,
      ...options.panel?.(index),
    });
    started.push(panel);
    panels.push(panel);
    const watch = (what: 'away' | 'back') => panel.nextRestart(what).then(() => seen.push({ what, panel: index }));
    void watch('away');
    void watch('back');
    const { id } = await core.addPanel({ address: panel.url, name: `Panel ${index}` });
    await core.logIn(id, { email: DEMO_USER.email, password: DEMO_USER.password });
    ids.push(id);
    panel.requests.splice(0);
  }
  return { core, plans, events, ids, panels, seen };
}

/** Easypanel's update, in each generation's route (tRPC, RPC, the public API). */
export const UPDATE_PATH = /\/api\/(update|rpc\/update\/update|trpc\/update\.update)$/;

/** How many updates the panel received. */
export const updateRequests = (panel: ReferencePanel) => panel.requests.filter((request) => UPDATE_PATH.test(request.path)).length;

export const outcomes = (results: PanelUpgradeResult[]) => results.map((result) => result.outcome);
