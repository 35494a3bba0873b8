import type { FleetServicesStore } from '../window/health-store.ts';
import { FLEET_ROWS, rowsOfPanel } from './all-services-rows.ts';
import type { PanelStore } from '../window/panel-store.ts';

/** A slice of the work per task: well under a frame, so the window never waits behind it. */
const SLICE_MS = 6;

/**
 * Makes the fleet Services view's rows (search text and all) of every panel read, ahead and a
 * slice per task, whenever the panels or their services change: opening the view with ten
 * thousand services then finds them made and draws its first rows at once. Returns the stop.
 */
export function warmFleetRows(
  panelStore: Pick<PanelStore, 'subscribe' | 'getSnapshot'>,
  services: Pick<FleetServicesStore, 'subscribe' | 'getSnapshot'>,
): () => void {
  let timer: ReturnType<typeof setTimeout> | null = null;
  const start = () => {
    if (timer !== null) clearTimeout(timer);
    const { byId } = panelStore.getSnapshot();
    const pending = [...services.getSnapshot().values()];
    let at = 0;
    const slice = () => {
      const until = performance.now() + SLICE_MS;
      while (at < pending.length && performance.now() < until) {
        const read = pending[at++]!;
        const panel = byId.get(read.panelId);
        if (panel?.signedIn) rowsOfPanel(panel, read, FLEET_ROWS);
      }
      timer = at < pending.length ? setTimeout(slice, 0) : null;
    };
    timer = setTimeout(slice, 0);
  };
  const stops = [panelStore.subscribe(start), services.subscribe(start)];
  return () => {
    if (timer !== null) clearTimeout(timer);
    for (const stop of stops) stop();
  };
}
