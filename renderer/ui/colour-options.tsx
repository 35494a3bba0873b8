import { COLOUR_NAMES, PANEL_COLOURS } from '../../shared/labels.ts';

/** "None" and the named colours, for a colour <select>. */
export function ColourOptions() {
  return (
    <>
      <option value="">None</option>
      {PANEL_COLOURS.map((colour) => (
        <option key={colour} value={colour}>
          {COLOUR_NAMES[colour]}
        </option>
      ))}
    </>
  );
}
