import type { SessionCheck } from '../../../shared/types.ts';
import type { CheckState } from './check-history.ts';
import type { StoredHealth } from './health-record.ts';

/**
 * When a panel's check state is worth rewriting in checks.json ("materially changed"). Every
 * check moves its times on, and most read the same figures again: writing each of those made
 * checks.json 3x the panel list per pass. What the window shows is always the state in memory;
 * this only decides what waits for the next material change (or a restart) to reach the disk.
 *
 * Material, always written:
 *   - anything the state says that is not a time or a load figure: ok ↔ failing, another error,
 *     a session end that moved, the panel's version, an update being out, the services' counts
 *     and the names of those down, a state read's problem appearing, going or changing;
 *   - a time that moved back, or on by STALE_AFTER_MS or more (the last check, the last state
 *     read, the last version read);
 *   - a load figure outside its band: CPU by CPU_BAND_POINTS points or more, memory or disk used
 *     by USED_BAND_SHARE of the total or more, a total that changed, a figure that appeared or went.
 * Not material: times moved on by less than STALE_AFTER_MS, figures within their bands.
 *
 * So after a restart the window may show, at most: the last check up to STALE_AFTER_MS (10 min)
 * older than it was ("checked 5 min ago" reads "checked 15 min ago" at worst), load figures
 * within their bands of the last ones read, and a version read asked up to 10 min earlier than
 * it was (the next is then due up to 10 min sooner). The next pass after the restart reads them
 * all again. Nothing an operator acts on (failing, signed out, services down, versions) is ever
 * older than the last check that said it.
 */
export const STALE_AFTER_MS = 10 * 60_000;
export const CPU_BAND_POINTS = 10;
export const USED_BAND_SHARE = 0.05;

/** A panel's check state, as check-history.ts keeps it. */
export type CheckedState = CheckState;

/** Whether `next` differs materially from `written` (what checks.json holds; undefined: nothing). */
export function changedMaterially(written: CheckedState | undefined, next: CheckedState): boolean {
  if (written === undefined) return true;
  if (written.sessionExpiresAt !== next.sessionExpiresAt) return true;
  if (written.panelVersion !== next.panelVersion || written.updateAvailable !== next.updateAvailable) return true;
  if (timeMoved(written.versionReadAt, next.versionReadAt)) return true;
  return checkChanged(written.lastCheck, next.lastCheck) || healthChanged(written.health, next.health);
}

/** Null ↔ a time, a time moved back, or on by STALE_AFTER_MS or more. */
function timeMoved(written: string | null, next: string | null): boolean {
  if (written === null || next === null) return written !== next;
  const moved = Date.parse(next) - Date.parse(written);
  return !(moved >= 0 && moved < STALE_AFTER_MS);
}

function checkChanged(written: SessionCheck | null, next: SessionCheck | null): boolean {
  if (written === null || next === null) return written !== next;
  if (written.ok !== next.ok || timeMoved(written.at, next.at)) return true;
  if (written.ok || next.ok) return false;
  return written.error.code !== next.error.code || written.error.message !== next.error.message;
}

function healthChanged(written: StoredHealth | null, next: StoredHealth | null): boolean {
  if (written === null || next === null) return written !== next;
  if (timeMoved(written.readAt, next.readAt)) return true;
  if (written.servicesDown !== next.servicesDown || !sameJson(written.downServices, next.downServices)) return true;
  if (!sameJson(written.services, next.services) || !sameJson(written.problem, next.problem)) return true;
  if (outOfBand(written.cpuPercent, next.cpuPercent, CPU_BAND_POINTS)) return true;
  return (
    usedChanged(written.memory.usedMb, written.memory.totalMb, next.memory.usedMb, next.memory.totalMb) ||
    usedChanged(written.disk.usedGb, written.disk.totalGb, next.disk.usedGb, next.disk.totalGb)
  );
}

function outOfBand(written: number | null, next: number | null, band: number): boolean {
  if (written === null || next === null) return written !== next;
  return Math.abs(next - written) >= band;
}

function usedChanged(usedBefore: number | null, totalBefore: number | null, used: number | null, total: number | null): boolean {
  if (totalBefore !== total) return true;
  // Without a total to take a share of, any change of the figure is one.
  return outOfBand(usedBefore, used, total === null ? Number.MIN_VALUE : Math.max(total * USED_BAND_SHARE, Number.MIN_VALUE));
}

/** Small plain values (counts, names, a problem): compared as their JSON. */
function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
