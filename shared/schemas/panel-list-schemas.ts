import { z } from 'zod';
import { COLUMN_WIDTH, PANE_WIDTH } from '../table-limits.ts';
import { PANEL_LIST_LAYOUTS, SERVICES_GROUPINGS, TABLE_COLUMNS, TABLE_GROUPINGS } from '../types.ts';

const tableColumn = z.enum(TABLE_COLUMNS, { error: `A table column must be one of ${TABLE_COLUMNS.join(', ')}.` });

const tableSettingsSchema = z.strictObject(
  {
    columns: z.array(tableColumn).max(TABLE_COLUMNS.length, { error: 'Too many table columns.' }),
    widths: z.partialRecord(tableColumn, z.number().int().min(COLUMN_WIDTH.min).max(COLUMN_WIDTH.max)),
    sortBy: tableColumn,
    descending: z.boolean({ error: 'Descending must be true or false.' }),
    grouped: z.boolean({ error: 'Grouped must be true or false.' }),
    groupBy: z.enum(TABLE_GROUPINGS, { error: `Group by must be one of ${TABLE_GROUPINGS.join(', ')}.` }).optional(),
  },
  { error: 'Expected { columns, widths, sortBy, descending, grouped, groupBy? }.' },
);

/**
 * The panel list settings' fields added with the table (all optional: a settings file of an older
 * version, and a list never switched to the table, have none), as the contract checks them.
 */
export const tableLayoutFields = {
  layout: z.enum(PANEL_LIST_LAYOUTS, { error: `Layout must be one of ${PANEL_LIST_LAYOUTS.join(', ')}.` }).optional(),
  paneWidth: z.number().int().min(PANE_WIDTH.min).max(PANE_WIDTH.max).optional(),
  table: tableSettingsSchema.optional(),
  servicesGroupBy: z.enum(SERVICES_GROUPINGS, { error: `Services grouping must be one of ${SERVICES_GROUPINGS.join(', ')}.` }).optional(),
};

/** The same fields as the settings file reads them: a damaged one is dropped (its default), never the whole view. */
export const storedTableLayoutFields = {
  layout: tableLayoutFields.layout.catch(undefined),
  paneWidth: tableLayoutFields.paneWidth.catch(undefined),
  table: tableLayoutFields.table.catch(undefined),
  servicesGroupBy: tableLayoutFields.servicesGroupBy.catch(undefined),
};
