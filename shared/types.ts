import type { PanelColour } from './labels.ts';
import type { CertificateInfo, ErrorInfo } from './contract/errors.ts';

/**
 * How a panel's API is spoken, one of Easypanel's generations: `public` 2.33+ (Easypanel's own
 * "public API": JSON bodies, `POST /login`, `GET /getSession`), `rpc` 2.31–2.32 (`/rpc/<ns>/<proc>`),
 * `trpc` 2.30 and before (`/trpc/<procedure>`, bodies and answers wrapped in `{ json }` envelopes).
 */
export type Generation = 'public' | 'rpc' | 'trpc';
export const GENERATIONS: readonly Generation[] = ['public', 'rpc', 'trpc'];

/**
 * How a token is protected, in one set of words for what protects tokens saved on this system now
 * (`TokenProtection.level`) and for where a signed-in panel's token went (`Panel.tokenStorage`):
 * - `keyring`: encrypted on disk by the system keyring;
 * - `weak`: on disk under a key built into the app (Linux's `basic_text`), which protects nothing;
 *   a token goes there only when the operator allowed it;
 * - `memory`: in memory for this run only (no encryption on offer, or `weak` not allowed).
 */
/**
 * What a signed-in panel's token is: `session` from a log in with email and password (it ends
 * when the panel says), `api-token` a long-lived API token made in Easypanel and pasted here (it
 * never ends by itself; only revoking it in Easypanel ends it, not a log out).
 */
export const TOKEN_KINDS = ['session', 'api-token'] as const;
export type TokenKind = (typeof TOKEN_KINDS)[number];

export const PROTECTION_LEVELS = ['keyring', 'weak', 'memory'] as const;
export type ProtectionLevel = (typeof PROTECTION_LEVELS)[number];

/** The outcome of the last session read, kept on the panel. */
export type SessionCheck = { at: string; ok: true } | { at: string; ok: false; error: ErrorInfo };

export interface Panel {
  id: string;
  name: string;
  /** The address as an operator reads it: Unicode host, port when not the default. */
  address: string;
  /** `https://<host[:port]>/api` (punycode host), or `http://` for a loopback host. */
  baseUrl: string;
  /**
   * The operator chose plain http:// for this panel although it is not on this computer: the
   * password and token cross the network readable. The window shows "Not encrypted" whenever
   * the address is http:// and this is set.
   */
  allowPlainHttp: boolean;
  /** How the panel's API is spoken; found out at log in when one at the public API's paths finds nothing. */
  generation: Generation;
  /** Path appended to `baseUrl` to log in, e.g. `/login`. */
  loginPath: string;
  /** Path appended to `baseUrl` to read the session, e.g. `/getSession`. */
  sessionPath: string;
  /**
   * The certificate the operator trusted for this panel (trust on first use): the panel is then
   * accepted with exactly this certificate and no other, whether the system trusts it or not.
   */
  trustedCertificate: CertificateInfo | null;
  /** Dot path of the token in the login response; `null` means "look in the usual places". */
  tokenField: string | null;
  createdAt: string;
  /** The email last used to log in (never the password). */
  lastEmail: string | null;
  signedIn: boolean;
  /** How the token of the last log in is kept; null when signed out. */
  tokenStorage: ProtectionLevel | null;
  /** What the token of the last sign-in is; null when signed out (and in files of older versions). */
  tokenKind: TokenKind | null;
  /**
   * "Keep me signed in": a log in asks the panel for its long session (`rememberMe`). The
   * operator's choice in the log in form, remembered for the panel; on unless turned off.
   */
  keepSignedIn: boolean;
  /** Why the panel is signed out when it did not choose to be (expired token, unreadable vault). */
  signedOutReason: ErrorInfo | null;
  lastCheck: SessionCheck | null;
  /** When the session ends, from the last session read (its expiry field, or the token's `exp`). */
  sessionExpiresAt: string | null;
  /**
   * The Easypanel version the panel last named (`"2.32.2"`), read with the token after a log in
   * and then about hourly; null when it never named one (no such route, or not read yet).
   */
  panelVersion: string | null;
  /**
   * Whether the panel said a newer Easypanel is out, on the same read as its version (about
   * hourly); null when it never said (not read yet, or a panel whose answer has no `available`).
   */
  updateAvailable: boolean | null;
  /** The operator's group for the panel (a client, a region); `null` when none. */
  group: string | null;
  /** The operator's tags, in the order given. */
  tags: string[];
  /** The colour the operator gave the panel; red marks production. */
  colour: PanelColour | null;
  /** Pinned at the top of the list. */
  favourite: boolean;
  /** Left out of "Needs attention" by the operator (marked muted in the table); absent in older files, so false. */
  muted: boolean;
  /**
   * Look, don't touch: Paneldeck plans no write for this panel (actions, console writes, upgrades,
   * backups runs leave it out and say why). Easypanel's tokens carry every right of their user, so
   * this is the only place such a rule can live. Absent in older files, so false.
   */
  readOnly: boolean;
  /** The team's notes on the panel (who is on call, what is special); empty when none. Absent in older files. */
  notes: string;
  /** The fleet file the panel is shared in (its id in `listFleetFiles`); null for a panel of this machine only. */
  fleetFile: string | null;
  /** That file's name (`acme.paneldeck-fleet.json`), for its column, search and group; null when none, or not followed now. */
  fleetFileName: string | null;
  /**
   * The operator's other accounts on the panel (a project-limited user beside the admin), each with
   * its own token in the vault. The panel's own sign-in (`lastEmail`, `tokenKind`) stays the
   * default: every read goes as it. Absent (none) in older files.
   */
  accounts: PanelAccount[];
  /** The account writes go as: an id of `accounts`, or null for the panel's own sign-in. */
  writeAccount: string | null;
}

/** Another account kept for a panel: who it is, never its token. */
export interface PanelAccount {
  id: string;
  /** The email it logged in with (or the API token's user, when known); null for an API token of an unknown user. */
  email: string | null;
  kind: TokenKind;
  /** How its token is kept; null when its sign-in ended (a 401, an unreadable vault): it then writes nothing. */
  tokenStorage: ProtectionLevel | null;
  addedAt: string;
}

/**
 * What each field of a panel is, so that a field added to `Panel` makes the compiler ask which:
 * - `setting`: the operator's choice; kept in the panel list, exported, imported, copied by Duplicate;
 * - `kept`: kept in the panel list by Paneldeck itself (identity, sign-in), never exported;
 * - `shown`: worked out each time the panel is shown, never kept.
 * The stored record, the export, import and Duplicate take their fields from here.
 */
export const PANEL_FIELDS = {
  id: 'kept',
  name: 'setting',
  address: 'shown',
  baseUrl: 'kept',
  allowPlainHttp: 'setting',
  generation: 'setting',
  loginPath: 'setting',
  sessionPath: 'setting',
  trustedCertificate: 'setting',
  tokenField: 'setting',
  createdAt: 'kept',
  lastEmail: 'kept',
  signedIn: 'shown',
  tokenStorage: 'kept',
  tokenKind: 'kept',
  keepSignedIn: 'setting',
  signedOutReason: 'kept',
  // Kept only in files of older versions; shown from the check history now.
  lastCheck: 'kept',
  sessionExpiresAt: 'shown',
  // Learnt by checks like the session's end: kept in the check history, not the panel list.
  panelVersion: 'shown',
  updateAvailable: 'shown',
  group: 'setting',
  tags: 'setting',
  colour: 'setting',
  favourite: 'setting',
  // An operational choice of this installation, like the sign-in: never exported.
  muted: 'kept',
  // The team's rule for the panel: exported, imported, shared in a fleet file.
  readOnly: 'setting',
  notes: 'setting',
  // Where this installation follows the panel from: never exported (a file names no other file).
  fleetFile: 'kept',
  fleetFileName: 'shown',
  // This installation's sign-ins, like the panel's own: never exported, never in a fleet file.
  accounts: 'kept',
  writeAccount: 'kept',
} as const satisfies Record<keyof Panel, 'setting' | 'kept' | 'shown'>;

/** The fields of `Panel` of one kind (or kinds) of `PANEL_FIELDS`. */
export type PanelFieldOfKind<Kind extends (typeof PANEL_FIELDS)[keyof Panel]> = {
  [Field in keyof Panel]: (typeof PANEL_FIELDS)[Field] extends Kind ? Field : never;
}[keyof Panel];

/** The operator's choices for a panel: what export writes, import reads and Duplicate copies. */
export type PanelSettings = Pick<Panel, PanelFieldOfKind<'setting'>>;

/** The outcome of checking one panel: its session read, or why not. */
export type PanelCheck =
  | { panelId: string; checkedAt: string; ok: true }
  | { panelId: string; checkedAt: string; ok: false; error: ErrorInfo };

export interface SessionResult {
  panelId: string;
  checkedAt: string;
  /** The JSON the panel returned for `getSession`, as it returned it. */
  session: unknown;
}

/** Replaces, in a session sent to the renderer, any value that holds the panel's token. */
export const HIDDEN_SECRET = '[hidden by Paneldeck: the panel sent the token back]';

/** Settings of this installation of Paneldeck, kept beside the panel list. */
export interface AppSettings {
  /**
   * Store tokens on disk even when the only encryption on offer is Linux's built-in key
   * (`basic_text`), which anyone who can read the files can undo. Off unless the operator asks.
   */
  storeTokensWithWeakProtection: boolean;
  /** How many session reads a check of many panels has in flight at most (1 to 64). */
  checkConcurrency: number;
  /** Every how many minutes each signed-in panel is checked in the background; 0 turns it off. */
  checkIntervalMinutes: number;
  /** How long before a session ends the operator is warned (minutes). */
  expiryWarningMinutes: number;
  /** Whether the warning is also a system notification. */
  notifyBeforeExpiry: boolean;
  /** A panel's disk used past this percent raises an alert (once per crossing). */
  diskAlertPercent: number;
  /** A website's certificate this many days or fewer from its end raises an alert (once per domain, from the certificates read). */
  certificateAlertDays: number;
  /** Whether each of these alerts is also a system notification (the Alerts list records them all). */
  notifyServiceDown: boolean;
  notifyDiskFull: boolean;
  notifyUnreachable: boolean;
  /** How the panel list looked when the window last changed it, so a restart shows it the same. */
  panelList: PanelListSettings;
  /** How long one request to a panel may take before it is given up (seconds). */
  requestTimeoutSeconds: number;
  /** The window's colours: the system's, or always light or dark. */
  theme: Theme;
  /** Offered in the log in form of a panel never logged in to; null for none. */
  defaultEmail: string | null;
}

export const THEMES = ['system', 'light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];

/** The orders the panel list can be in. */
export const LIST_SORTS = ['name', 'status', 'checked', 'expiry', 'version'] as const;
export type ListSort = (typeof LIST_SORTS)[number];

/** The panel list's state worth keeping across restarts (not secrets). */
export interface PanelListSettings {
  selectedPanelId: string | null;
  sort: ListSort;
  attentionOnly: boolean;
  /** Groups shown folded, by name. */
  collapsedGroups: string[];
  /** The compact list or the dense table; absent is the list. */
  layout?: PanelListLayout;
  /** The list pane's width in pixels as the operator dragged it (table only); absent is the window's default. */
  paneWidth?: number;
  /** How the table looks: its columns, their widths, its order; absent is the default. */
  table?: TableSettings;
  /** How the fleet's Services view groups its rows; absent is by panel. */
  servicesGroupBy?: ServicesGrouping;
}

/** How the fleet's Services view groups every service of every panel. */
export const SERVICES_GROUPINGS = ['panel', 'group', 'project', 'state'] as const;
export type ServicesGrouping = (typeof SERVICES_GROUPINGS)[number];

export const PANEL_LIST_LAYOUTS = ['list', 'table'] as const;
export type PanelListLayout = (typeof PANEL_LIST_LAYOUTS)[number];

/** The columns of the table layout, in the order they are offered. */
export const TABLE_COLUMNS = [
  'state',
  'name',
  'group',
  'file',
  'reason',
  'version',
  'update',
  'disk',
  'memory',
  'cpu',
  'down',
  'session',
  'checked',
] as const;
export type TableColumn = (typeof TABLE_COLUMNS)[number];

export interface TableSettings {
  /** The columns shown, in order. */
  columns: TableColumn[];
  /** Widths the operator dragged, in pixels; a column absent has its default width. */
  widths: Partial<Record<TableColumn, number>>;
  /** The column the rows are sorted by; `state` sorts by severity (attention first). */
  sortBy: TableColumn;
  descending: boolean;
  /** Rows under a heading per group (sorted within), or one flat list across groups. */
  grouped: boolean;
  /** What the headings are when grouped: the operator's groups, or the fleet files (absent in older files: groups). */
  groupBy?: TableGrouping;
}

export const TABLE_GROUPINGS = ['group', 'file'] as const;
export type TableGrouping = (typeof TABLE_GROUPINGS)[number];

/** What protects tokens saved on this system now. */
export interface TokenProtection {
  level: ProtectionLevel;
  /** safeStorage's name for it: `gnome_libsecret`, `kwallet6`, `basic_text`, `keychain`, `dpapi`... */
  backend: string;
}

/** Something Paneldeck found wrong in its files at start and worked around; the UI shows it once. */
export interface StartupProblem {
  /** Which file: the panel list, the saved sign-ins, the settings or the activity log. */
  file: 'panels' | 'tokens' | 'settings' | 'activity';
  message: string;
  /** Where the untouched copy of the damaged file was kept, so nothing is lost. */
  copyPath: string | null;
}

export interface AppStatus {
  settings: AppSettings;
  tokenProtection: TokenProtection;
  startupProblems: StartupProblem[];
}

/** Entries the activity log keeps at most: the oldest are dropped past it. */
export const ACTIVITY_KEPT = 10_000;

/** What a write did to a panel, in the activity log: `pending` until the panel answered. */
/** `not-sent`: recorded before it was sent, and then not sent (the sign-in changed, or Paneldeck stopped first). */
export type ActivityOutcome = 'pending' | 'ok' | 'failed' | 'unknown' | 'not-sent';

/**
 * The writes Paneldeck makes to a panel: a log in opens a session (with a password) or checks a
 * pasted API token (`logInWithApiToken`); a log out ends the session at the panel, or forgets an
 * API token here (`logOutApiToken`: nothing is sent, the token stays valid at the panel); deploy to
 * restart act on a service; `operation` is a write from the API console (`operation` names it).
 */
export const ACTIVITY_ACTIONS = [
  'logIn',
  'logInWithApiToken',
  'logOut',
  'logOutApiToken',
  'deploy',
  'start',
  'stop',
  'restart',
  'operation',
  'cancelDeploy',
  'upgrade',
  'runBackup',
] as const;
export type ActivityAction = (typeof ACTIVITY_ACTIONS)[number];

/**
 * The operation and its target: a service's project and name for the service actions, none for a
 * log out; for a console write, the catalogue's operation name (never its input, which may hold secrets).
 */
export interface ActivityWhat {
  action: ActivityAction;
  projectName?: string;
  serviceName?: string;
  operation?: string;
}

/** One write to a panel, as the activity log keeps it. Never a token or a password. */
export interface ActivityEntry {
  id: string;
  /** When it was recorded, before the request was sent (ISO time). */
  at: string;
  panelId: string;
  /** The panel's name and address when the write was made: kept when the panel is renamed or removed. */
  panelName: string;
  panelAddress: string;
  /** The account the write went as: its email, or "an API token"; null in entries of before it was kept. */
  account: string | null;
  what: ActivityWhat;
  outcome: ActivityOutcome;
  /** The panel's words or why the outcome is not known, shortened and with secrets left out; null when none. */
  message: string | null;
  /** When the outcome was known; null while pending, or when Paneldeck stopped first. */
  finishedAt: string | null;
}

/** The activity log, newest first, and how many entries it keeps at most (the oldest are dropped). */
export interface ActivityList {
  entries: ActivityEntry[];
  bound: number;
}
