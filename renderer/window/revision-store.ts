import { SnapshotStore } from './snapshot-store.ts';

/** How many times main said a list of its own changed: a view showing that list reads it again when its count grows. */
export interface RevisionSnapshot {
  /** Grows at each `activityChanged`: the activity view reads the log again. */
  readonly activity: number;
  /** Grows at each `alertRaised` and `alertChanged`: the Alerts view and the start summary read again. */
  readonly alerts: number;
}

/** Main's activity log and alerts changed: the counts their views read again on. */
export class RevisionStore extends SnapshotStore<RevisionSnapshot> {
  constructor() {
    super({ activity: 0, alerts: 0 });
  }

  activityChanged(): void {
    this.update({ activity: this.getSnapshot().activity + 1 });
  }

  alertsChanged(): void {
    this.update({ alerts: this.getSnapshot().alerts + 1 });
  }
}
