import { join } from 'node:path';
import { DEFAULT_SETTINGS } from '../../../shared/settings.ts';
import type { AppSettings, PanelCheck } from '../../../shared/types.ts';
import { Listeners } from '../common/listeners.ts';
import type { CertificateInfo } from '../../../shared/contract/errors.ts';
import type { PanelEvent } from '../../../shared/contract/events.ts';
import { createNodeFetch, createNodeWriteFetch } from '../net/node-fetch.ts';
import { RouteMemory } from '../easypanel/route-memory.ts';
import type { RequestSettings } from '../easypanel/panel-endpoints.ts';
import { ActivityLog } from '../storage/activity-log.ts';
import { openJsonFiles } from '../storage/document-store.ts';
import { activityMethods } from '../activity/activity-methods.ts';
import { AlertCenter, alertMethods } from '../checks/alerts.ts';
import { appMethods } from '../app/app-status.ts';
import { certificateMethods } from '../panels/certificate-methods.ts';
import { certificateFile } from '../certificates/certificate-file.ts';
import { certificateListMethods } from '../certificates/certificate-list.ts';
import { DIRECT } from '../certificates/certificate-probe.ts';
import { backupListMethods } from '../backups/backup-list.ts';
import { backupRunMethods } from '../backups/backup-runs.ts';
import { FleetFiles } from '../fleet-files/fleet-files.ts';
import { fleetFileMethods } from '../fleet-files/fleet-file-methods.ts';
import { backupFile } from '../backups/backup-file.ts';
import { deploymentMethods } from '../services/deployments.ts';
import { upgradeMethods } from '../upgrades/upgrade-run.ts';
import { deploymentCancelMethods } from '../services/deployment-cancel.ts';
import { fleetSignInMethods } from '../sign-in/fleet-sign-in.ts';
import { fleetServiceMethods } from '../services/all-services.ts';
import { FleetStateReader } from '../checks/fleet-state.ts';
import { PanelActionsReader, timelineMethods } from '../checks/panel-actions.ts';
import { KeptServices } from '../services/kept-services.ts';
import { ChangeBatcher, PanelChangeBatcher } from '../context/change-batchers.ts';
import { operationConsoleMethods } from '../console/operation-console.ts';
import { PanelCatalogues } from '../console/catalogue-cache.ts';
import { featureMethods } from '../console/feature-methods.ts';
import { createPanelSignIns } from '../sign-in/panel-log-in.ts';
import { panelAccountMethods } from '../sign-in/panel-accounts.ts';
import { transferMethods } from '../transfer/transfer-methods.ts';
import { textFileMethods } from '../app/text-files.ts';
import { panelMethods } from '../panels/panel-methods.ts';
import { ServiceActionsInFlight, serviceActionMethods, type ServiceWrites } from '../services/service-actions.ts';
import type { Core, CoreOptions, OpenedFolder } from '../context/core-context.ts';
import { openDataFolder, toPanel, type DataFolder } from '../storage/data-folder.ts';
import { SessionCache } from '../sign-in/session-cache.ts';
import { SessionReader } from '../sign-in/session-reader.ts';
import { serviceReadMethods } from '../services/service-reads.ts';
import { serviceLogMethods } from '../services/service-logs.ts';
import { sessionMethods } from '../checks/check-methods.ts';
import { signInMethods } from '../sign-in/sign-in-methods.ts';
import { confirmLogOut } from '../writes/log-out-plan.ts';
import type { SignInParts } from '../sign-in/keep-sign-in.ts';
import type { TokenCalls } from '../sign-in/with-token.ts';
import { validatingArguments } from './validated-arguments.ts';

export type { Core, CoreOptions } from '../context/core-context.ts';

/** The activity log's file in the data folder. */
export const ACTIVITY_FILE = 'activity.jsonl';

/**
 * The whole of Paneldeck's main-process logic behind the contract. Every method validates its
 * arguments against the contract's schemas, so it can be called from IPC or a script alike.
 * Each concern lives in its own module, given the few parts it uses; this is the wiring.
 */
export function createCore(options: CoreOptions): Core {
  const now = options.now ?? (() => new Date());
  const openStore = options.openStore ?? openJsonFiles(options.dataDir);
  let opened: DataFolder | null = null;
  const request: RequestSettings = {
    fetch: options.fetch ?? createNodeFetch(),
    // Read at each request: the operator's setting applies from the next request on.
    get timeoutMs() {
      return options.timeoutMs ?? (opened?.settings.get() ?? DEFAULT_SETTINGS).requestTimeoutSeconds * 1000;
    },
    maxResponseBytes: options.maxResponseBytes ?? 4 * 1024 * 1024,
    resolveProxy: options.resolveProxy,
    routes: new RouteMemory(),
    writeFetch: options.writeFetch ?? (options.fetch ? undefined : createNodeWriteFetch()),
  };
  const openActivity = () => ActivityLog.open(join(options.dataDir, ACTIVITY_FILE), { now, ...options.activity });
  const ready = openDataFolder(openStore, openActivity, options.encryption, now());
  // Keeps a failed start from being an unhandled rejection; each call still sees the failure.
  ready.catch(() => undefined);
  void ready.then(
    (value) => (opened = value),
    () => undefined,
  );

  // The fleet files hear of every panel change too: a change to a shared panel is written back to its file.
  let fleetFiles: FleetFiles | null = null;
  const emit = (event: PanelEvent) => {
    options.emit?.(event);
    fleetFiles?.panelEvent(event);
  };
  const cache = new SessionCache();
  const changes = new PanelChangeBatcher(emit, (ids) => {
    const current = opened;
    if (!current) return [];
    return ids.flatMap((id) => {
      const record = current.registry.get(id);
      return record ? [toPanel(record, current)] : [];
    });
  });
  const presented = new Map<string, CertificateInfo>();
  const keptServices = new KeptServices(emit);
  const reader = new SessionReader({ request, now, cache, changes, presented, signInEnded: (id) => keptServices.gone(id) });
  const inFlight = new ServiceActionsInFlight();
  // Paneldeck's own deploy in flight shows as `deploying` in the services it lists and counts.
  const deploys = {
    has: (panelId: string, projectName: string, serviceName: string) =>
      inFlight.running(panelId, { projectName, serviceName }) === 'deploy',
  };
  const fleetChanges = new ChangeBatcher((ids) => {
    const current = opened;
    const panels = current ? ids.flatMap((id) => fleet.health(current, id) ?? []) : [];
    if (panels.length > 0) emit({ type: 'fleetStateChanged', panels });
  });
  const fleet = new FleetStateReader({ request, now, reader, deploys, changes: fleetChanges, services: keptServices });
  const panelActions = new PanelActionsReader({ request, now });
  // A panel removed or moved: its state and its actions history are another server's, forgotten together.
  const forgetsState = {
    forget: (panelId: string) => {
      fleet.forget(panelId);
      panelActions.forget(panelId);
    },
  };
  const alerts = new AlertCenter({ now, emit, opened: () => opened });
  // Main's notifications (Core.onSettingsChanged and the others): the features tell, main listens.
  const settingsListeners = new Listeners<AppSettings>();
  const trustListeners = new Listeners<void>();
  const checkListeners = new Listeners<readonly PanelCheck[]>();
  const trust = { changed: () => trustListeners.tell() };

  // Each feature gets the few parts it uses, nothing more.
  const folder: OpenedFolder = { state: () => ready, opened: () => opened };
  const tokenCalls: TokenCalls = { state: folder.state, reader };
  // Each panel's own catalogue: what the console calls, and where the features Paneldeck relies on are found.
  const catalogues = new PanelCatalogues(request, now);
  const writes: ServiceWrites = { request, inFlight, emit, confirmWrite: options.confirmWrite };
  const signInParts: SignInParts = { state: folder.state, now, cache, reader, changes, request, emit, presented };
  // One log in of a panel (and one queue of them) for the log in of one panel and of several, and for API tokens.
  const signIns = createPanelSignIns(signInParts);
  const panelList = panelMethods({
    state: folder.state,
    now,
    cache,
    reader,
    changes,
    presented,
    request,
    emit,
    fleet: forgetsState,
    alerts,
    trust,
  });
  fleetFiles = new FleetFiles({
    state: folder.state,
    now,
    emit,
    store: openStore('fleet-files', { secret: false }),
    changed: (panelId) => changes.changed(panelId),
    removePanels: (panelIds) => panelList.removePanels(panelIds),
    trustChanged: () => trust.changed(),
    pollMs: options.fleetFilePollMs,
  });
  const following = fleetFiles;
  void ready.then(() => following.start()).catch(() => undefined);
  return validatingArguments({
    ...appMethods(
      {
        state: folder.state,
        now,
        changes,
        settingsChanges: { changed: (settings) => settingsListeners.tell(settings) },
        batched: [changes, fleetChanges, keptServices],
      },
      options,
    ),
    ...panelList,
    ...fleetFileMethods(following, options),
    ...signInMethods(
      {
        state: folder.state,
        cache,
        reader,
        changes,
        request,
        emit,
        confirmLogOut: (records) => confirmLogOut(options.confirmWrite, records),
      },
      signIns,
    ),
    ...fleetSignInMethods({ ...folder, now, emit }, signIns.withPassword),
    ...panelAccountMethods(signInParts),
    ...sessionMethods({
      ...folder,
      now,
      emit,
      reader,
      cache,
      fleet,
      actions: {
        // The window's Activity view reads the timeline again when a panel's actions changed.
        read: async (...read) => {
          const changed = await panelActions.read(...read);
          if (changed) emit({ type: 'activityChanged', panelId: read[1].id });
          return changed;
        },
      },
      alerts,
      checksDone: { done: (checks) => checkListeners.tell(checks) },
    }),
    ...certificateMethods({ state: folder.state, changes, presented, trust }),
    ...transferMethods({ state: folder.state, now, changes, trust }, options),
    ...textFileMethods(options),
    ...activityMethods(folder),
    ...timelineMethods(folder, panelActions),
    ...alertMethods(folder, alerts),
    ...serviceActionMethods({ ...tokenCalls, ...writes }),
    ...serviceReadMethods({ ...tokenCalls, request, now, fleet }, deploys),
    ...serviceLogMethods({ ...tokenCalls, request, now, emit }),
    ...deploymentMethods({ ...tokenCalls, request, now, catalogues }),
    ...deploymentCancelMethods({ ...tokenCalls, ...writes, catalogues }),
    ...upgradeMethods({ ...tokenCalls, reader, ...writes, now, alerts, ...options.upgrades }),
    ...fleetServiceMethods({ ...tokenCalls, ...writes, keptServices }),
    ...certificateListMethods({
      ...tokenCalls,
      request,
      now,
      concurrency: () => opened?.settings.get().checkConcurrency ?? DEFAULT_SETTINGS.checkConcurrency,
      resolveDomain: options.resolveDomain ?? DIRECT,
      store: certificateFile(() => openStore('certificates', { secret: false })),
      certificatesRead: (state, read) => alerts.certificatesRead(state, read),
    }),
    // Backups at a glance: the read (kept in backups.json, alerts raised from it) and the runs now.
    ...backupListMethods({
      ...tokenCalls,
      request,
      now,
      catalogues,
      store: backupFile(() => openStore('backups', { secret: false })),
      backupsRead: (state, panels) => alerts.backupsRead(state, panels),
    }),
    ...backupRunMethods({ ...tokenCalls, ...writes, catalogues }),
    ...operationConsoleMethods({ ...tokenCalls, ...folder, request, now, emit, catalogues, confirmWrite: options.confirmWrite }),
    ...featureMethods({ ...tokenCalls, catalogues }),
    onSettingsChanged: settingsListeners.add,
    onTrustChanged: trustListeners.add,
    onPanelsChecked: checkListeners.add,
  });
}
