/**
 * A service's runtime log as the contract gives it: the last lines (`readServiceLogs`), and
 * following it live (`followServiceLogs`, lines arriving as `serviceLogLines` events).
 */

/** How many lines a read may ask for, and how many it gets unless it says. */
export const SERVICE_LOG_LINES = { min: 1, max: 10_000, default: 1_000 } as const;

/** What Easypanel allows as a project or service name, and how long Paneldeck lets one be. */
export const SERVICE_NAME_PATTERN = /^[a-z0-9-_]+$/;
export const SERVICE_NAME_MAX = 64;

/** A service of a panel, by its project's name and its own. */
export interface ServiceRef {
  projectName: string;
  serviceName: string;
}

/** What `readServiceLogs` asks for: the service, and how many of the last lines (`SERVICE_LOG_LINES`). */
export interface ServiceLogsInput extends ServiceRef {
  lines?: number;
}

/** The last lines of a service's runtime log. */
export interface ServiceLogs {
  panelId: string;
  projectName: string;
  serviceName: string;
  /** ISO 8601: when the panel's backlog arrived. */
  readAt: string;
  /** Oldest first; control characters shown as U+FFFD, colour codes removed, each line capped. */
  lines: string[];
  /** The backlog held more lines than asked for (the oldest were left out), or a line was cut. */
  truncated: boolean;
}

/** A live follow of a service's log, until `stopFollowingServiceLogs` or its `serviceLogEnded` event. */
export interface ServiceLogFollow {
  followId: string;
  panelId: string;
  projectName: string;
  serviceName: string;
}
