import { z } from 'zod';
import { COLUMN_WIDTH, PANE_WIDTH } from '../board-table.ts';
import { BOARD_LAYOUTS, SERVICES_GROUPINGS, TABLE_COLUMNS } from '../types.ts';

const tableColumn = z.enum(TABLE_COLUMNS, { error: `A table column must be one of ${TABLE_COLUMNS.join(', ')}.` });

const boardTableSchema = z.strictObject(
  {
    columns: z.array(tableColumn).max(TABLE_COLUMNS.length, { error: 'Too many table columns.' }),
    widths: z.partialRecord(tableColumn, z.number().int().min(COLUMN_WIDTH.min).max(COLUMN_WIDTH.max)),
    sortBy: tableColumn,
    descending: z.boolean({ error: 'Descending must be true or false.' }),
    grouped: z.boolean({ error: 'Grouped must be true or false.' }),
  },
  { error: 'Expected { columns, widths, sortBy, descending, grouped }.' },
);

/**
 * The board view's fields added with the table (all optional: a settings file of an older
 * version, and a list never switched to the table, have none), as the contract checks them.
 */
export const boardTableFields = {
  layout: z.enum(BOARD_LAYOUTS, { error: `Layout must be one of ${BOARD_LAYOUTS.join(', ')}.` }).optional(),
  paneWidth: z.number().int().min(PANE_WIDTH.min).max(PANE_WIDTH.max).optional(),
  table: boardTableSchema.optional(),
  servicesGroupBy: z.enum(SERVICES_GROUPINGS, { error: `Services grouping must be one of ${SERVICES_GROUPINGS.join(', ')}.` }).optional(),
};

/** The same fields as the settings file reads them: a damaged one is dropped (its default), never the whole view. */
export const storedBoardTableFields = {
  layout: boardTableFields.layout.catch(undefined),
  paneWidth: boardTableFields.paneWidth.catch(undefined),
  table: boardTableFields.table.catch(undefined),
  servicesGroupBy: boardTableFields.servicesGroupBy.catch(undefined),
};
