import { COLOUR_NAMES } from '../../shared/labels.ts';
import type { Panel } from '../../shared/types.ts';

/** The panel's colour, group and tags under its name, when it has any. */
export function PanelLabels({ panel }: { panel: Panel }) {
  if (!panel.colour && panel.group === null && panel.tags.length === 0 && !panel.favourite) return null;
  return (
    <p className="panel-labels muted">
      {panel.favourite && <span>★ Favourite</span>}
      {panel.colour && (
        <span>
          <span className={`colour-swatch colour-${panel.colour}`} aria-hidden="true" /> {COLOUR_NAMES[panel.colour]}
        </span>
      )}
      {panel.group !== null && <span>Group: {panel.group}</span>}
      {panel.tags.length > 0 && <span>Tags: {panel.tags.join(', ')}</span>}
    </p>
  );
}
