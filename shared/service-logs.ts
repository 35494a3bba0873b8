import { z } from 'zod';

/**
 * A service's runtime log as the contract gives it: the last lines (`readServiceLogs`), and
 * following it live (`followServiceLogs`, lines arriving as `serviceLogLines` events).
 */

/** How many lines a read may ask for, and how many it gets unless it says. */
export const SERVICE_LOG_LINES = { min: 1, max: 10_000, default: 1_000 } as const;

/** What Easypanel allows as a project or service name. */
export const SERVICE_NAME_PATTERN = /^[a-z0-9-_]+$/;

const namePart = (what: string) =>
  z
    .string({ error: `${what} must be text.` })
    .min(1, { error: `${what} cannot be empty.` })
    .max(64, { error: `${what} is too long (64 characters at most).` })
    .regex(SERVICE_NAME_PATTERN, { error: `${what} may hold only lower-case letters, digits, "-" and "_".` });

export const serviceRefSchema = z.object({ projectName: namePart('Project name'), serviceName: namePart('Service name') }).strict();
export type ServiceRef = z.input<typeof serviceRefSchema>;

export const serviceLogsInputSchema = serviceRefSchema
  .extend({
    lines: z
      .number({ error: 'Lines must be a number.' })
      .int({ error: 'Lines must be a whole number.' })
      .min(SERVICE_LOG_LINES.min, { error: 'Lines must be at least 1.' })
      .max(SERVICE_LOG_LINES.max, { error: `Lines is too large (${SERVICE_LOG_LINES.max.toLocaleString('en')} at most).` })
      .optional(),
  })
  .strict();
export type ServiceLogsInput = z.input<typeof serviceLogsInputSchema>;

export const followIdSchema = z.uuid({ error: 'Follow id must be a UUID.' });

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
