import { useDeferredValue, useMemo, useState } from 'react';
import type { Panel } from '../../shared/types.ts';
import { SearchField } from '../ui/search-field.tsx';
import { VirtualRows } from '../ui/virtual-rows.tsx';

const ROW_HEIGHT = 32;

/** Every word must be in the panel's name, address, group or tags. */
function matches(panel: Panel, words: readonly string[]): boolean {
  const text = [panel.name, panel.address, panel.group ?? '', ...panel.tags].join(' ').toLowerCase();
  return words.every((word) => text.includes(word));
}

interface FleetPanelPickerProps {
  /** The signed-in panels: only they can be asked. */
  panels: readonly Panel[];
  chosen: ReadonlySet<string>;
  onChosen(chosen: ReadonlySet<string>): void;
}

/** Which panels the operation runs on: a filter, each panel's box, and all or none of those shown. */
export function FleetPanelPicker({ panels, chosen, onChosen }: FleetPanelPickerProps) {
  const [query, setQuery] = useState('');
  const shownQuery = useDeferredValue(query);
  const shown = useMemo(() => {
    const words = shownQuery.toLowerCase().split(/\s+/).filter(Boolean);
    return words.length === 0 ? panels : panels.filter((panel) => matches(panel, words));
  }, [panels, shownQuery]);
  const toggle = (id: string, on: boolean) => {
    const next = new Set(chosen);
    if (on) next.add(id);
    else next.delete(id);
    onChosen(next);
  };
  const setShown = (on: boolean) => {
    const next = new Set(chosen);
    for (const panel of shown) {
      if (on) next.add(panel.id);
      else next.delete(panel.id);
    }
    onChosen(next);
  };
  const count = panels.filter((panel) => chosen.has(panel.id)).length;
  return (
    <section className="fleet-console-panels" aria-label="Panels to run on">
      <SearchField label="Filter the panels" placeholder="Filter name, address, group, tag" value={query} onSearch={setQuery} />
      <div className="console-catalogue-bar">
        <span className="muted" role="status">
          {count} of {panels.length} signed-in panels chosen
        </span>
        <button type="button" className="button-small" onClick={() => setShown(true)} disabled={shown.length === 0}>
          {shown.length === panels.length ? 'All' : `All ${shown.length} shown`}
        </button>
        <button type="button" className="button-small" onClick={() => setShown(false)} disabled={shown.length === 0}>
          None
        </button>
      </div>
      {panels.length === 0 ? (
        <p className="muted">No panel is signed in: log in to some first.</p>
      ) : (
        <VirtualRows
          items={shown}
          rowHeight={ROW_HEIGHT}
          label="Signed-in panels"
          keyOf={(panel) => panel.id}
          row={(panel, placement) => (
            <li className="fleet-console-panel" {...placement}>
              <label>
                <input type="checkbox" checked={chosen.has(panel.id)} onChange={(event) => toggle(panel.id, event.target.checked)} />
                <span className="fleet-console-panel-name">{panel.name}</span>
                {panel.colour === 'red' && <span className="status-badge console-red">production</span>}
                <span className="muted console-panel-address">{panel.address}</span>
              </label>
            </li>
          )}
        />
      )}
    </section>
  );
}
