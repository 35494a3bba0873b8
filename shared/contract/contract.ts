import { z } from 'zod';
import { PanelError, type ErrorInfo } from './errors.ts';
import {
  activityQuerySchema,
  timelineQuerySchema,
  addPanelInputSchema,
  apiTokenInputSchema,
  accountIdSchema,
  accountInputSchema,
  type AccountInput,
  appSettingsPatchSchema,
  bulkChangeSchema,
  chosenPanelIdsSchema,
  fleetFileIdSchema,
  fleetConflictChoiceSchema,
  type FleetConflictChoice,
  upgradeOptionsSchema,
  upgradePanelIdsSchema,
  credentialsSchema,
  duplicatePanelInputSchema,
  fleetLogInInputSchema,
  importChoiceSchema,
  importPreviewIdSchema,
  importSourceSchema,
  panelIdSchema,
  panelIdsSchema,
  textFileKindSchema,
  textFileToSaveSchema,
  trustCertificateInputSchema,
  updatePanelInputSchema,
  type ActivityQuery,
  type TimelineQuery,
  type AddPanelInput,
  type ApiTokenInput,
  type AppSettingsPatch,
  type BulkChange,
  type Credentials,
  type DuplicatePanelInput,
  type FleetLogInInput,
  type TrustCertificateInput,
  type UpdatePanelInput,
  alertIdSchema,
  certificateQuerySchema,
  type CertificateQuery,
} from '../schemas/schemas.ts';
import type { PanelFeatures } from '../panel-features.ts';
import type { ActivityList, AppStatus, Panel, PanelCheck, SessionResult } from '../types.ts';
import type { ExportResult, ImportChoice, ImportPreview, ImportResult, ImportSource } from '../transfer.ts';
import type { OpenedTextFile, SavedTextFile, TextFileKind, TextFileToSave } from '../text-files.ts';
import type { MethodName } from './methods.ts';
import type { FleetLogInResult } from '../fleet-login.ts';
import type { ServiceActionInput, ServiceActionResult } from '../service-actions.ts';
import type { ServerStats, ServiceList } from '../services.ts';
import type { PanelHealth } from '../fleet-state.ts';
import type { DeploymentCancelResult, DeploymentList, DeploymentLog } from '../deployments.ts';
import type { PanelUpgradeResult, UpgradeOptions, UpgradeRun } from '../upgrades.ts';
import type { FleetFileInfo } from '../fleet-file.ts';
import type { ServiceLogFollow, ServiceLogs, ServiceLogsInput, ServiceRef } from '../service-logs.ts';
import type { Alert, StartSummary } from '../alerts.ts';
import type { CertificateRow } from '../certificates.ts';
import type { BackupRunItem, BackupRunResult, PanelBackups } from '../backups.ts';
import { type BackupQuery, backupQuerySchema, backupRunItemsSchema } from '../schemas/backup-schemas.ts';
import type { TimelineList } from '../timeline.ts';
import type { PanelServices, ServiceActionItem, ServiceActionItemResult, ServiceActionRun } from '../fleet-services.ts';
import type { ServiceAction } from '../service-actions.ts';
import type { Catalogue, OperationAnswer, OperationCall, OperationRunOptions, PanelOperationResult } from '../operations-console.ts';
import { operationCallSchema, operationRunOptionsSchema } from '../schemas/console-schemas.ts';
import {
  deploymentIdSchema,
  followIdSchema,
  serviceActionInputSchema,
  serviceActionItemsSchema,
  serviceActionSchema,
  serviceLogsInputSchema,
  serviceRefSchema,
} from '../schemas/service-action-schemas.ts';

export { methodNames, type MethodName } from './methods.ts';

/**
 * The API the renderer calls and main serves. Adding a method here makes the compiler ask for
 * its argument schema below, and (from the app on) for its bridge and registrar entries.
 */
export interface PanelApi {
  listPanels(): Promise<Panel[]>;
  addPanel(input: AddPanelInput): Promise<Panel>;
  updatePanel(id: string, patch: UpdatePanelInput): Promise<Panel>;
  /** Also forgets the panel's token. */
  removePanel(id: string): Promise<void>;
  /** Never returns the token. */
  logIn(id: string, credentials: Credentials): Promise<Panel>;
  /**
   * Signs in with a long-lived API token made in Easypanel, once the panel accepted it (a session
   * read, else the version read). Never returns the token; UNAUTHORIZED when the panel refuses it.
   */
  logInWithApiToken(id: string, input: ApiTokenInput): Promise<Panel>;
  /** Forgets the token; a session is also ended at the panel, an API token is not (it stays valid until revoked in Easypanel). */
  logOut(id: string): Promise<Panel>;
  /**
   * Signs in another account on the panel (a project-limited user beside the admin), kept apart
   * from the panel's own sign-in: reads still go as that one. At most 8; never returns the token.
   */
  addPanelAccount(id: string, input: AccountInput): Promise<Panel>;
  /** Forgets another account's token (its session is ended at the panel); writes it went as go as the panel's own sign-in again. */
  removePanelAccount(id: string, accountId: string): Promise<Panel>;
  /** The account the panel's writes go as from now on: one of its other accounts, or null for its own sign-in. */
  chooseWriteAccount(id: string, accountId: string | null): Promise<Panel>;
  getSession(id: string): Promise<SessionResult>;
  /** The last session read of the panel in this run (already redacted), at once; null when none. */
  getCachedSession(id: string): Promise<SessionResult | null>;
  /**
   * Reads the session of every signed-in panel, or of `ids`, a bounded number at a time. A call
   * while a check is running joins it. A signed-out panel answers NOT_SIGNED_IN without a request.
   */
  checkPanels(ids?: string[]): Promise<PanelCheck[]>;
  /**
   * The state the last check read of each panel (services by state, load, version), kept between
   * runs, in the order of the panel list; panels never read are left out. Checks send changes as
   * `fleetStateChanged` events.
   */
  getFleetState(): Promise<PanelHealth[]>;
  /** Stops the check under way and any session read in flight; what was not finished is not recorded. */
  cancelChecks(): Promise<void>;
  /** Stops the session reads of one panel (getSession) in flight; a check of many panels under way goes on. */
  cancelSessionRead(id: string): Promise<void>;
  /**
   * Trusts the certificate the panel presented in its last CERTIFICATE_UNTRUSTED or
   * CERTIFICATE_CHANGED error, named by its fingerprint; from then on the panel is accepted with
   * that certificate only. A fingerprint the panel did not present is refused.
   */
  trustCertificate(id: string, certificate: TrustCertificateInput): Promise<Panel>;
  /** Removes the trusted certificate: the panel must then be trusted by the system again. */
  forgetCertificate(id: string): Promise<Panel>;
  /** Settings, how tokens are protected on this system, and what was repaired at start. */
  getAppStatus(): Promise<AppStatus>;
  /** Turning weak protection on saves tokens now in memory; turning it off deletes them from disk. */
  updateSettings(patch: AppSettingsPatch): Promise<AppStatus>;
  /**
   * Writes the panels (all, or `ids`) to a file the operator chooses in main's save dialog: what
   * they typed and chose, never tokens, passwords, emails or check history.
   */
  exportPanels(ids?: string[]): Promise<ExportResult>;
  /**
   * Reads panels to import (a file main asks for in the open dialog, or pasted text) and says what
   * each entry would do; changes nothing. Null when the operator cancels the dialog.
   */
  previewImport(source: ImportSource): Promise<ImportPreview | null>;
  /**
   * Writes text the window made (a table as CSV, saved requests as JSON) to a file the operator
   * chooses in main's save dialog, offering `file.name`; written whole or not at all. `path` null
   * when they cancel.
   */
  saveTextFile(file: TextFileToSave): Promise<SavedTextFile>;
  /** Reads a `kind` file the operator chooses in main's open dialog (at most TEXT_FILE_MAX_BYTES, UTF-8); null when they cancel. */
  openTextFile(kind: TextFileKind): Promise<OpenedTextFile | null>;
  /** Carries out the newest preview, in one write of the panel list. */
  applyImport(previewId: string, choice: ImportChoice): Promise<ImportResult>;
  /** A new panel with the settings and labels of `id` at another address, signed out. */
  duplicatePanel(id: string, input: DuplicatePanelInput): Promise<Panel>;
  /** Changes the group, tags, colour or favourite mark of several panels in one write. */
  updatePanels(ids: string[], change: BulkChange): Promise<Panel[]>;
  /** Logs out of several panels at once. */
  logOutPanels(ids: string[]): Promise<Panel[]>;
  /**
   * Logs in to each of `ids` with one email and password, a bounded number at a time, sending
   * `logInProgress` events; one result per panel, in the order asked. The password is kept for
   * this run only. One run at a time: a second call while one runs is refused.
   */
  logInPanels(ids: string[], input: FleetLogInInput): Promise<FleetLogInResult[]>;
  /** Starts no more log ins of the run under way (they answer `cancelled`); those already sent finish. */
  cancelLogIns(): Promise<void>;
  /** Removes several panels (and forgets their tokens) in one write. */
  removePanels(ids: string[]): Promise<void>;
  /**
   * Quits and restarts Paneldeck into the update main downloaded (the window heard `updateReady`).
   * NOT_FOUND when no update is ready; otherwise the app quits, so the answer may never arrive.
   */
  installUpdate(): Promise<void>;
  /**
   * The activity log: every write Paneldeck made to a panel (a log out at the panel; deploys and
   * service actions), newest first, of one panel or all, the newest `limit` (all kept by default).
   */
  listActivity(query?: ActivityQuery): Promise<ActivityList>;
  /**
   * Who did what, on every panel: the activity log merged with each panel's own actions history
   * as the checks last read it (`PANEL_ACTIONS_KEPT` a panel), newest first, at most `limit`
   * (`TIMELINE_BOUND`); of one panel or all. No request: the checks read the panels.
   */
  listTimeline(query?: TimelineQuery): Promise<TimelineList>;
  /**
   * The last alerts (`ALERTS_KEPT`), newest first: a service newly down, a disk passing the
   * threshold, a panel that stopped answering, a session about to end. Raised once per change,
   * never per check; each new one also comes as an `alertRaised` event.
   */
  listAlerts(): Promise<Alert[]>;
  /**
   * Acknowledges an alert: it stays listed, and its condition raises nothing more while it holds.
   * Answers the alert as it is now (`alertChanged` tells the window too); NOT_FOUND when it is no
   * longer in the list.
   */
  acknowledgeAlert(id: string): Promise<Alert>;
  /**
   * What the first check of each panel after this start raised, compared with what the last run
   * saw (the faults that happened while Paneldeck was closed), with when the last run saw it.
   */
  getStartSummary(): Promise<StartSummary>;
  /**
   * Deploys, starts, stops or restarts a service, mapped to its type's own write after a fresh
   * read of the panel's services (a database's start and stop are enable and disable; an action
   * the type lacks is INVALID_INPUT). Recorded in the activity log before it is sent and again
   * with its outcome; never sent twice. Resolves when the panel answered (`done`), or `unknown`
   * when no answer came (the panel may have done it); a refusal fails with the panel's words.
   * `serviceActionChanged` events tell the window each step.
   */
  runServiceAction(panelId: string, input: ServiceActionInput): Promise<ServiceActionResult>;
  /**
   * The panel's projects and services, each with its state (from the panel's task stats) and
   * replicas, read in main with the panel's token. NOT_SIGNED_IN without a sign-in; a 401 ends it.
   */
  listServices(panelId: string): Promise<ServiceList>;
  /** The server's load (version, uptime, CPU, memory, disk), each figure null when the panel does not say it. */
  getServerStats(panelId: string): Promise<ServerStats>;
  /**
   * The last `lines` (default 1,000, at most 10,000) of a service's runtime log: main opens the
   * panel's log WebSocket with the token (which never reaches the window), takes its backlog (the
   * first frame) and closes it, within a deadline and a size limit.
   */
  readServiceLogs(panelId: string, input: ServiceLogsInput): Promise<ServiceLogs>;
  /**
   * Follows a service's runtime log live: new lines reach the window as `serviceLogLines` events,
   * batched; it ends with `serviceLogEnded` (stopped, the window gone or reloaded, the sign-in
   * ended, the panel closed it). The backlog is not sent: read it with `readServiceLogs`.
   */
  followServiceLogs(panelId: string, service: ServiceRef): Promise<ServiceLogFollow>;
  /** Ends a follow; an unknown or ended one is no error. */
  stopFollowingServiceLogs(followId: string): Promise<void>;
  /**
   * A service's deployments (the panel's actions: builds, deployments, starts, stops), newest
   * first, each with its type, status and times; a status the panel words otherwise is `unknown`.
   * NOT_SIGNED_IN without a sign-in; a 401 ends it.
   */
  listDeployments(panelId: string, service: ServiceRef): Promise<DeploymentList>;
  /**
   * One deployment's build log and status, read afresh (a running build's log grows between
   * reads): its last `DEPLOYMENT_LOG_MAX_CHARS` at most, `truncated` when it was longer.
   */
  getDeploymentLog(panelId: string, deploymentId: string): Promise<DeploymentLog>;
  /**
   * Cancels a running deployment (`killAction {id}`) after main's confirmation: sent once, never
   * retried; `unknown` when no answer came. One marked `noKill`, or not running, is refused
   * (INVALID_INPUT) with no write sent. Recorded in the activity log as `cancelDeploy`.
   */
  cancelDeployment(panelId: string, deploymentId: string): Promise<DeploymentCancelResult>;
  /**
   * Upgrades Easypanel on the panels in waves (the first `canary` alone, then at most `waveSize`
   * at once): each panel's version read afresh for one plan, asked once in main's confirmation;
   * each update sent once, never retried; the next wave only once every panel of this one is back
   * on a new version. Stops at the first failure or at a panel not back in time (`unknown`, with
   * an alert): the rest are `skipped`. Steps told as `upgradeChanged`, the end as `upgradesEnded`.
   */
  upgradePanels(panelIds: string[], options: UpgradeOptions): Promise<PanelUpgradeResult[]>;
  /** Starts nothing more in the upgrade run under way and ends its waiting: a panel sent to and not back is `unknown`. */
  cancelUpgrades(): Promise<void>;
  /** The upgrade run under way with each panel's step, for a window reloaded during it; null when none. */
  getUpgradeRun(): Promise<UpgradeRun | null>;
  /** The fleet files followed here, each with its problem and conflicts. */
  listFleetFiles(): Promise<FleetFileInfo[]>;
  /** Asks for a fleet file in main's open dialog and follows it: its panels join the list. Null when the operator cancelled. */
  openFleetFile(): Promise<FleetFileInfo | null>;
  /** Asks where in main's save dialog, writes a new fleet file of these panels and follows it. Null when cancelled. */
  createFleetFile(panelIds: string[]): Promise<FleetFileInfo | null>;
  /** Moves panels of this machine into a followed fleet file (written back at once). */
  shareInFleetFile(panelIds: string[], fileId: string): Promise<FleetFileInfo>;
  /** Stops following a fleet file: its panels stay, as panels of this machine. */
  closeFleetFile(fileId: string): Promise<void>;
  /**
   * Settles a field both sides changed apart (a conflict of `FleetFileInfo.conflicts`): `here` writes
   * the operator's value back to the file, `file` takes the file's value here. The file answers as it is after.
   */
  resolveFleetConflict(fileId: string, choice: FleetConflictChoice): Promise<FleetFileInfo>;
  /**
   * Takes the pin a fleet file gives a signed-in panel (`FleetFileInfo.trust`, by its address) after the
   * operator compared it: its token then goes only to that certificate (none pinned: the system's trust).
   */
  trustFleetFilePin(fileId: string, address: string): Promise<FleetFileInfo>;
  /**
   * Every signed-in panel's services as main last read them (each check reads the task stats, the
   * list when due): no request is made. A panel not read since the start is absent until its first check.
   */
  getFleetServices(): Promise<PanelServices[]>;
  /**
   * The certificate of every domain of every app service of every signed-in panel, one row each,
   * as a TLS handshake with the domain got it (no HTTP request, nothing of the panel's sent). Read
   * again at most daily; `refresh` reads them now. A panel or a service whose domains could not be
   * read is one row saying why (its host empty).
   */
  listCertificates(query?: CertificateQuery): Promise<CertificateRow[]>;
  /**
   * Each signed-in panel's backup schedules with their last runs, and its database services with
   * no enabled schedule; read again at most daily (kept on disk), `refresh` reads them now. A
   * panel whose backups could not be read says why in `problem` and keeps its last good read.
   */
  listBackups(query?: BackupQuery): Promise<PanelBackups[]>;
  /**
   * Runs the chosen schedules now: one plan of every run asked once in main's confirmation, each
   * then sent once (never retried), a bounded number at a time, each recorded in the activity log
   * as `runBackup`; a lost answer is `unknown`.
   */
  runBackups(items: BackupRunItem[]): Promise<BackupRunResult[]>;
  /** Stops a `runBackups` under way from sending more: what was not sent is `cancelled`. */
  cancelBackups(): Promise<void>;
  /**
   * Runs `action` on each item, a bounded number at a time across panels (and fewer per panel),
   * each sent once, never retried, each recorded in the activity log, each step told as the existing
   * `serviceActionChanged` event; one result per item in the order asked. One run at a time: a second
   * call while one runs is refused (INVALID_INPUT, saying so). Items are validated in main (panel ids,
   * names, at most MAX_SERVICE_ACTION_ITEMS, no duplicates).
   */
  runServiceActions(items: ServiceActionItem[], action: ServiceAction): Promise<ServiceActionItemResult[]>;
  /** Starts nothing more of the run under way (those items answer `cancelled`); what is sent finishes. */
  cancelServiceActions(): Promise<void>;
  /**
   * The run of `runServiceActions` under way, each item with how far it went, or null when none
   * runs: a window reloaded during a run takes it up (its progress, Cancel), then hears its steps as
   * `serviceActionChanged` and its end as `serviceActionsEnded`.
   */
  getServiceActionRun(): Promise<ServiceActionRun | null>;
  /**
   * The panel's catalogue of operations from its own `/api/openapi.json` (read with the token),
   * cached per panel and version: a new version, address or sign-in reads it again. Operations
   * whose shape is unsound or whose path leaves the panel's `/api` are listed in `skipped`, with why.
   */
  getOperations(panelId: string): Promise<Catalogue>;
  /**
   * The features Paneldeck builds on, as the panel's own catalogue has them (read as `getOperations`
   * reads it, cached per version): each found by its candidate names, or missing ("this panel's
   * Easypanel has no …"), and the requests Paneldeck sends that the catalogue lacks or lists the
   * other way (drift between Easypanel versions).
   */
  getPanelFeatures(panelId: string): Promise<PanelFeatures>;
  /**
   * Calls one operation of the panel's catalogue: the input validated against its schema first
   * (INVALID_INPUT with the schema's errors, nothing sent), sent in the generation's form only to
   * the panel's own /api. A write is recorded in the activity log before it is sent and with its
   * outcome; never retried. The answer's status is the panel's, whatever it is (a 4xx is an answer,
   * not a failure), except a 401/403, which ends the sign-in as any call's does.
   */
  callOperation(panelId: string, call: OperationCall): Promise<OperationAnswer>;
  /**
   * The same operation on each panel, a bounded number at a time, `operationProgress` events as each
   * ends; one result per panel in the order asked. Reads only unless `allowWrite` (the window asked
   * once, typed for red panels): each panel's write is recorded. One run at a time: a second call
   * while one runs is refused; `cancelOperationRun` starts no more.
   */
  callOperationOnPanels(panelIds: string[], call: OperationCall, options: OperationRunOptions): Promise<PanelOperationResult[]>;
  /** Starts no more calls of the run under way (they answer `cancelled`); reads in flight are aborted, writes already sent finish. */
  cancelOperationRun(): Promise<void>;
}

export type MethodArgs<M extends MethodName> = Parameters<PanelApi[M]>;
export type MethodResult<M extends MethodName> = Awaited<ReturnType<PanelApi[M]>>;

/** What one call's result looks like once it has crossed a process boundary. */
export type Envelope<T> = { ok: true; value: T } | { ok: false; error: ErrorInfo };

export const argumentSchemas = {
  listPanels: z.tuple([]),
  addPanel: z.tuple([addPanelInputSchema]),
  updatePanel: z.tuple([panelIdSchema, updatePanelInputSchema]),
  removePanel: z.tuple([panelIdSchema]),
  logIn: z.tuple([panelIdSchema, credentialsSchema]),
  logInWithApiToken: z.tuple([panelIdSchema, apiTokenInputSchema]),
  logOut: z.tuple([panelIdSchema]),
  addPanelAccount: z.tuple([panelIdSchema, accountInputSchema]),
  removePanelAccount: z.tuple([panelIdSchema, accountIdSchema]),
  chooseWriteAccount: z.tuple([panelIdSchema, accountIdSchema.nullable()]),
  getSession: z.tuple([panelIdSchema]),
  getCachedSession: z.tuple([panelIdSchema]),
  checkPanels: z.tuple([panelIdsSchema]),
  getFleetState: z.tuple([]),
  cancelChecks: z.tuple([]),
  cancelSessionRead: z.tuple([panelIdSchema]),
  trustCertificate: z.tuple([panelIdSchema, trustCertificateInputSchema]),
  forgetCertificate: z.tuple([panelIdSchema]),
  getAppStatus: z.tuple([]),
  updateSettings: z.tuple([appSettingsPatchSchema]),
  exportPanels: z.tuple([panelIdsSchema]),
  saveTextFile: z.tuple([textFileToSaveSchema]),
  openTextFile: z.tuple([textFileKindSchema]),
  previewImport: z.tuple([importSourceSchema]),
  applyImport: z.tuple([importPreviewIdSchema, importChoiceSchema]),
  duplicatePanel: z.tuple([panelIdSchema, duplicatePanelInputSchema]),
  updatePanels: z.tuple([chosenPanelIdsSchema, bulkChangeSchema]),
  logOutPanels: z.tuple([chosenPanelIdsSchema]),
  logInPanels: z.tuple([chosenPanelIdsSchema, fleetLogInInputSchema]),
  cancelLogIns: z.tuple([]),
  removePanels: z.tuple([chosenPanelIdsSchema]),
  installUpdate: z.tuple([]),
  listActivity: z.tuple([activityQuerySchema]),
  listTimeline: z.tuple([timelineQuerySchema]),
  listAlerts: z.tuple([]),
  acknowledgeAlert: z.tuple([alertIdSchema]),
  getStartSummary: z.tuple([]),
  runServiceAction: z.tuple([panelIdSchema, serviceActionInputSchema]),
  listServices: z.tuple([panelIdSchema]),
  getServerStats: z.tuple([panelIdSchema]),
  readServiceLogs: z.tuple([panelIdSchema, serviceLogsInputSchema]),
  followServiceLogs: z.tuple([panelIdSchema, serviceRefSchema]),
  stopFollowingServiceLogs: z.tuple([followIdSchema]),
  listDeployments: z.tuple([panelIdSchema, serviceRefSchema]),
  getDeploymentLog: z.tuple([panelIdSchema, deploymentIdSchema]),
  cancelDeployment: z.tuple([panelIdSchema, deploymentIdSchema]),
  upgradePanels: z.tuple([upgradePanelIdsSchema, upgradeOptionsSchema]),
  cancelUpgrades: z.tuple([]),
  getUpgradeRun: z.tuple([]),
  listFleetFiles: z.tuple([]),
  openFleetFile: z.tuple([]),
  createFleetFile: z.tuple([chosenPanelIdsSchema]),
  shareInFleetFile: z.tuple([chosenPanelIdsSchema, fleetFileIdSchema]),
  closeFleetFile: z.tuple([fleetFileIdSchema]),
  resolveFleetConflict: z.tuple([fleetFileIdSchema, fleetConflictChoiceSchema]),
  trustFleetFilePin: z.tuple([fleetFileIdSchema, z.string({ error: 'The address must be text.' }).min(1).max(2048)]),
  getFleetServices: z.tuple([]),
  listCertificates: z.tuple([certificateQuerySchema]),
  listBackups: z.tuple([backupQuerySchema]),
  runBackups: z.tuple([backupRunItemsSchema]),
  cancelBackups: z.tuple([]),
  runServiceActions: z.tuple([serviceActionItemsSchema, serviceActionSchema]),
  cancelServiceActions: z.tuple([]),
  getServiceActionRun: z.tuple([]),
  getOperations: z.tuple([panelIdSchema]),
  getPanelFeatures: z.tuple([panelIdSchema]),
  callOperation: z.tuple([panelIdSchema, operationCallSchema]),
  callOperationOnPanels: z.tuple([chosenPanelIdsSchema, operationCallSchema, operationRunOptionsSchema]),
  cancelOperationRun: z.tuple([]),
} satisfies { [M in MethodName]: z.ZodType<unknown, MethodArgs<M>> };

/** Parsed, normalised arguments of a method (names trimmed, empty token field as null). */
export type ParsedArgs<M extends MethodName> = z.output<(typeof argumentSchemas)[M]>;

/**
 * Validates the arguments of one call against the contract. Anything that does not fit becomes an
 * `INVALID_INPUT` error whose message names the field and what was wrong with it.
 */
export function parseArguments<M extends MethodName>(method: M, args: unknown): ParsedArgs<M> {
  // TypeScript cannot follow a generic index into the table; the table's `satisfies` checks it.
  return parseInput(argumentSchemas[method] as unknown as z.ZodType<ParsedArgs<M>>, args);
}

/** Checks `value` against one of the contract's schemas, with the same messages as a call would get. */
export function parseInput<T>(schema: z.ZodType<T>, value: unknown): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new PanelError('INVALID_INPUT', describeIssues(parsed.error));
}

function describeIssues(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'The request was not valid.';
  if (issue.path.length === 0) {
    if (issue.code === 'too_big') return 'Too many arguments.';
    if (issue.code === 'too_small') return 'Missing arguments.';
    return 'The arguments must be a list.';
  }
  if (issue.code === 'unrecognized_keys') {
    // Key names come from the caller: shorten them so a hostile one cannot flood the message.
    const keys = issue.keys.slice(0, 5).map((key) => JSON.stringify(key.slice(0, 40)));
    return `Unexpected field${issue.keys.length > 1 ? 's' : ''}: ${keys.join(', ')}.`;
  }
  // Every schema in shared/schemas/schemas.ts words its own messages for an operator.
  return issue.message;
}
