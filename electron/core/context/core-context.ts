import type { WritePlan } from '../../../shared/write-plan.ts';
import type { MethodResult, PanelApi, ParsedArgs } from '../../../shared/contract/contract.ts';
import type { CertificateInfo } from '../../../shared/contract/errors.ts';
import type { PanelEvent } from '../../../shared/contract/events.ts';
import type { AppSettings, PanelCheck } from '../../../shared/types.ts';
import type { TextFileKind } from '../../../shared/text-files.ts';
import type { FetchLike } from '../net/http-client.ts';
import type { ProxyResolver } from '../net/proxy-tunnel.ts';
import type { ActivityLogOptions } from '../storage/activity-log.ts';
import type { OpenStore } from '../storage/document-store.ts';
import type { RegistryLoadProblem, RegistryMigration } from '../storage/panel-registry.ts';
import type { Encryption } from '../storage/token-vault.ts';
import type { DataFolder } from '../storage/data-folder.ts';

export interface CoreOptions {
  /** The folder the panel list, the token store, the settings and the check history are kept in. */
  dataDir: string;
  encryption: Encryption;
  /**
   * Defaults to `createNodeFetch` (https judged by the system or the panel's trusted certificate);
   * the app passes a fetch over Chromium's network stack (system proxy, OS certificates).
   */
  fetch?: FetchLike;
  /**
   * What writes to panels go through: a fresh connection for each, never a reused one (a network
   * stack may resend a request after a reset on a reused connection: Chromium's does, a POST too).
   * Default: a Node fetch opening a connection per write; with `fetch` given and this not, `fetch`.
   */
  writeFetch?: FetchLike;
  /**
   * Main's own confirmation of a write (the app: a window of its own, electron/main/
   * write-confirmation.ts). The core awaits it with the plan before sending any write, and sends
   * only what it confirmed; without it no write is sent at all (NOT_CONFIRMED).
   */
  confirmWrite?: (plan: WritePlan) => Promise<boolean>;
  /**
   * The system's proxy for the connections the core opens itself (the log socket), as a PAC answer
   * ("DIRECT", "PROXY host:port"); the app passes Electron's `session.resolveProxy`. Without it they connect directly.
   */
  resolveProxy?: ProxyResolver;
  /** Per request, headers and body together. Default 15 s. */
  timeoutMs?: number;
  /** Largest answer read from a panel. Default 4 MiB: room for a session with a 1 MiB string, far below memory trouble. */
  maxResponseBytes?: number;
  /** Defaults to JSON files in `dataDir`, written atomically, which the app uses too. */
  openStore?: OpenStore;
  /** How `activity.jsonl` is written: its bound, and the file operations (tests make them fail). */
  activity?: Omit<ActivityLogOptions, 'now'>;
  now?: () => Date;
  /** Where events for the window go (the app sends them to its own window only). */
  emit?: (event: PanelEvent) => void;
  /**
   * Asks the operator where to export panels (the app: the system's save dialog), offering
   * `suggestedName`; null when they cancel. Without it nothing is exported.
   */
  chooseExportFile?: (suggestedName: string) => Promise<string | null>;
  /** Asks the operator for a file to import (the app: the system's open dialog); null when they cancel. */
  chooseImportFile?: () => Promise<string | null>;
  /** Asks the operator for a `.csv` or `.json` file to open (the app: the open dialog); null when they cancel. */
  chooseTextFile?: (kind: TextFileKind) => Promise<string | null>;
  /** Asks the operator for a fleet file to follow (the app: the open dialog); null when they cancel. */
  chooseFleetFile?: () => Promise<string | null>;
  /** Asks where a new fleet file goes (the app: the save dialog); null when they cancel. */
  chooseNewFleetFile?: () => Promise<string | null>;
  /** How often each fleet file is looked at besides the folder's watcher (the app: 2 s). */
  fleetFilePollMs?: number;
  /**
   * Where a website's certificate is read (`listCertificates`): the host itself on 443 by default;
   * tests map hosts to loopback TLS servers.
   */
  resolveDomain?: (host: string) => { address: string; port: number } | Promise<{ address: string; port: number }>;
  /**
   * How an upgrade run waits for each panel to come back (`upgradePanels`): how long it has (the
   * app: 15 minutes) and how often it is looked at meanwhile (5 seconds); tests shorten both.
   */
  upgrades?: { returnDeadlineMs?: number; returnPollMs?: number };
  /** Quits into the downloaded update (the app: its update checks); false when none is ready. Without it none ever is. */
  installUpdate?: () => boolean;
}

/** Set on the core, whose every contract method validates its arguments (`wiring/validated-arguments.ts`): the registrar then does not parse them again. */
export const ARGUMENTS_VALIDATED: unique symbol = Symbol('paneldeck.argumentsValidated');

export interface Core extends PanelApi {
  /** Every contract method validates its arguments against the contract's schemas itself. */
  readonly [ARGUMENTS_VALIDATED]: true;
  /** What was wrong with the panel list on disk when it was loaded, if anything. */
  loadProblem(): Promise<RegistryLoadProblem | null>;
  /** The format the panel list was upgraded from at start, and where the old file was kept. */
  migration(): Promise<RegistryMigration | null>;
  /** The settings as they are now, for main's background work. */
  currentSettings(): Promise<AppSettings>;
  /** Writes what is waiting (check history, events) now: at quit. */
  flush(): Promise<void>;
  /** Ends every live follow of a service log: the window closed or reloaded, so nobody listens. */
  stopAllLogFollows(): void;
  /** Main's expiry watcher warned that the panel's session ends at `expiresAt`: recorded as an alert. */
  sessionEnding(panelId: string, expiresAt: string): Promise<void>;
  /**
   * Main's notifications (VS Code's `onDidUpdateConfiguration`): each subscribes a listener and
   * returns the unsubscribe. The settings as they are after each change that was made
   * (`updateSettings`; a refused one tells nothing).
   */
  onSettingsChanged(listener: (settings: AppSettings) => void): () => void;
  /**
   * After each call that can change which certificate a panel accepts (trusting or forgetting
   * one, a panel's change or removal, an import), failed ones too, which may have changed part of
   * it: connections made under the old trust are to be closed.
   */
  onTrustChanged(listener: () => void): () => void;
  /** The results of each `checkPanels` call, the moment it answers: checks someone started count as the panels' last. */
  onPanelsChecked(listener: (checks: readonly PanelCheck[]) => void): () => void;
}

/**
 * The methods of the core one feature module serves. A contract method takes its arguments parsed
 * (trimmed, defaults filled in, typed by the schema's output): `wiring/validated-arguments.ts`
 * checks them once, at the core's edge, for every caller.
 */
export type CoreMethods<M extends keyof Core> = {
  [K in M]: K extends keyof PanelApi ? (...args: ParsedArgs<K>) => Promise<MethodResult<K>> : Core[K];
};

/*
 * The few parts the feature modules share, each a small interface: a module takes those it uses
 * (and its own feature's objects), never the whole of what the wiring built.
 */

/** The data folder, opened once: a call waits for it, and every call fails when it could not be opened. */
export interface FolderAccess {
  state(): Promise<DataFolder>;
}

/** The data folder, and once open the files themselves: for what must answer at once (the concurrency setting, events). */
export interface OpenedFolder extends FolderAccess {
  /** The files once open, else null. */
  opened(): DataFolder | null;
}

/** Sends an event to the window (the app sends it to its own window only). */
export type Emit = (event: PanelEvent) => void;

/** The certificate each panel last presented and was refused for: what trustCertificate may pin. */
export type PresentedCertificates = Map<string, CertificateInfo>;

/** Where a call that can change which certificate a panel accepts says it ended (`Core.onTrustChanged`). */
export interface TrustChanges {
  changed(): void;
}

/** Runs a call that can change which certificate a panel accepts, and says so as it ends, however it ends. */
export async function changingTrust<T>(trust: TrustChanges, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } finally {
    trust.changed();
  }
}
