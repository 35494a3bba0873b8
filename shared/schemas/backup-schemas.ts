import { z } from 'zod';
import { BACKUP_ID_MAX, BACKUP_ID_PATTERN, type BackupRunItem, backupKey, MAX_BACKUP_RUN_ITEMS } from '../backups.ts';
import { serviceRefSchema } from './service-action-schemas.ts';
import { panelIdSchema, refreshQuerySchema } from './schemas.ts';

/** How to list the backups: `refresh` reads them now, not the day's kept read. */
export const backupQuerySchema = refreshQuerySchema;
export type BackupQuery = z.input<typeof backupQuerySchema>;

const backupRunItemSchema = serviceRefSchema
  .extend({
    panelId: panelIdSchema,
    kind: z.enum(['database', 'volume'], { error: 'A backup is a database or a volume backup.' }),
    id: z
      .string({ error: 'Backup id must be text.' })
      .min(1, { error: 'Backup id cannot be empty.' })
      .max(BACKUP_ID_MAX, { error: `Backup id is too long (${BACKUP_ID_MAX} characters at most).` })
      .regex(BACKUP_ID_PATTERN, { error: 'Backup id may hold only letters, digits, "-" and "_".' }),
  })
  .strict() satisfies z.ZodType<BackupRunItem>;

/** The schedules of a run: at least one, each once. */
export const backupRunItemsSchema = z
  .array(backupRunItemSchema, { error: 'Expected a list of backups.' })
  .min(1, { error: 'Choose at least one backup.' })
  .max(MAX_BACKUP_RUN_ITEMS, { error: `Too many backups (${MAX_BACKUP_RUN_ITEMS.toLocaleString('en')} at most).` })
  .superRefine((items, context) => {
    const seen = new Set<string>();
    for (const [index, item] of items.entries()) {
      if (seen.has(backupKey(item))) {
        context.addIssue({ code: 'custom', path: [index], message: `Backup ${item.id} is asked for twice: each once.` });
        return;
      }
      seen.add(backupKey(item));
    }
  });
