import { z } from 'zod';
import { DEPLOYMENT_ID_MAX, DEPLOYMENT_ID_PATTERN } from '../deployments.ts';
import { MAX_SERVICE_ACTION_ITEMS, type ServiceActionItem } from '../fleet-services.ts';
import { panelIdSchema } from './schemas.ts';
import { SERVICE_ACTIONS, type ServiceAction, type ServiceActionInput } from '../service-actions.ts';
import { SERVICE_LOG_LINES, SERVICE_NAME_MAX, SERVICE_NAME_PATTERN, type ServiceLogsInput, type ServiceRef } from '../service-logs.ts';

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

export const serviceActionSchema = z.enum(SERVICE_ACTIONS, {
  error: 'The action must be deploy, start, stop or restart.',
}) satisfies z.ZodType<ServiceAction>;

export const serviceActionInputSchema = serviceRefSchema
  .extend({ action: serviceActionSchema })
  .strict() satisfies z.ZodType<ServiceActionInput>;

/** One service of an action across panels. */
export const serviceActionItemSchema = serviceRefSchema.extend({ panelId: panelIdSchema }).strict() satisfies z.ZodType<ServiceActionItem>;

/** The services of an action across panels: at least one, each once, `MAX_SERVICE_ACTION_ITEMS` at most. */
export const serviceActionItemsSchema = z
  .array(serviceActionItemSchema, { error: 'Expected a list of services.' })
  .min(1, { error: 'Choose at least one service.' })
  .max(MAX_SERVICE_ACTION_ITEMS, {
    error: `Too many services (${MAX_SERVICE_ACTION_ITEMS.toLocaleString('en')} at most).`,
  })
  .superRefine((items, context) => {
    const seen = new Set<string>();
    for (const [index, { panelId, projectName, serviceName }] of items.entries()) {
      // A slash is in no id or name: the key is unique per service.
      const key = `${panelId}/${projectName}/${serviceName}`;
      if (seen.has(key)) {
        context.addIssue({
          code: 'custom',
          path: [index],
          message: `${projectName}/${serviceName} is asked for twice on one panel: each service once.`,
        });
        return;
      }
      seen.add(key);
    }
  });

export const followIdSchema = z.uuid({ error: 'Follow id must be a UUID.' });

export const deploymentIdSchema = z
  .string({ error: 'Deployment id must be text.' })
  .min(1, { error: 'Deployment id cannot be empty.' })
  .max(DEPLOYMENT_ID_MAX, { error: `Deployment id is too long (${DEPLOYMENT_ID_MAX} characters at most).` })
  .regex(DEPLOYMENT_ID_PATTERN, { error: 'Deployment id may hold only letters, digits, "-" and "_".' });
