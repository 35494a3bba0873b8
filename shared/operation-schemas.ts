import { z } from 'zod';
import { DEPLOYMENT_ID_MAX, DEPLOYMENT_ID_PATTERN } from './deployments.ts';
import { SERVICE_ACTIONS, type ServiceActionInput } from './service-actions.ts';
import { SERVICE_LOG_LINES, SERVICE_NAME_MAX, SERVICE_NAME_PATTERN, type ServiceLogsInput, type ServiceRef } from './service-logs.ts';

/**
 * The arguments of the operations on a panel's services, as main validates them (contract.ts).
 * Apart from the types and limits they check (service-logs.ts, service-actions.ts,
 * deployments.ts), which the window imports too: zod stays out of the renderer's bundle.
 */

const namePart = (what: string) =>
  z
    .string({ error: `${what} must be text.` })
    .min(1, { error: `${what} cannot be empty.` })
    .max(SERVICE_NAME_MAX, { error: `${what} is too long (${SERVICE_NAME_MAX} characters at most).` })
    .regex(SERVICE_NAME_PATTERN, { error: `${what} may hold only lower-case letters, digits, "-" and "_".` });

export const serviceRefSchema = z
  .object({ projectName: namePart('Project name'), serviceName: namePart('Service name') })
  .strict() satisfies z.ZodType<ServiceRef>;

export const serviceLogsInputSchema = serviceRefSchema
  .extend({
    lines: z
      .number({ error: 'Lines must be a number.' })
      .int({ error: 'Lines must be a whole number.' })
      .min(SERVICE_LOG_LINES.min, { error: 'Lines must be at least 1.' })
      .max(SERVICE_LOG_LINES.max, { error: `Lines is too large (${SERVICE_LOG_LINES.max.toLocaleString('en')} at most).` })
      .optional(),
  })
  .strict() satisfies z.ZodType<ServiceLogsInput>;

export const serviceActionInputSchema = serviceRefSchema
  .extend({ action: z.enum(SERVICE_ACTIONS, { error: 'The action must be deploy, start, stop or restart.' }) })
  .strict() satisfies z.ZodType<ServiceActionInput>;

export const followIdSchema = z.uuid({ error: 'Follow id must be a UUID.' });

export const deploymentIdSchema = z
  .string({ error: 'Deployment id must be text.' })
  .min(1, { error: 'Deployment id cannot be empty.' })
  .max(DEPLOYMENT_ID_MAX, { error: `Deployment id is too long (${DEPLOYMENT_ID_MAX} characters at most).` })
  .regex(DEPLOYMENT_ID_PATTERN, { error: 'Deployment id may hold only letters, digits, "-" and "_".' });
