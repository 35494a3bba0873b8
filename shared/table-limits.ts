/** The table's limits, which the window uses too: its schemas are main's (panel-list-schemas.ts), so zod stays out of the renderer. */

/** The narrowest and widest list pane kept, in pixels: a damaged width never hides the panel view. */
export const PANE_WIDTH = { min: 280, max: 4000 } as const;
/** A column is never dragged narrower or wider than this (pixels). */
export const COLUMN_WIDTH = { min: 28, max: 1200 } as const;
