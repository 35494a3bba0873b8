import type { Panel } from '../../shared/types.ts';
import type { UpgradeRun } from '../../shared/upgrades.ts';
import { SnapshotStore } from './snapshot-store.ts';

/** What is open over the window: one at a time (opening one closes the other). */
export type WindowDialog =
  | { kind: 'addPanel' }
  /** Add panel with this panel's settings and labels. */
  | { kind: 'duplicatePanel'; of: Panel }
  | { kind: 'importPanels' }
  | { kind: 'preferences' }
  | { kind: 'palette' }
  /** One email and password for these panels (a selection of several). */
  | { kind: 'fleetLogIn'; panelIds: readonly string[] }
  /** Upgrade Easypanel on these panels, in waves; with `run`, the run main holds from before a reload, taken up. */
  | { kind: 'upgradePanels'; panelIds: readonly string[]; run?: UpgradeRun }
  /** The row menu, at this point of the window. */
  | { kind: 'rowMenu'; at: { x: number; y: number } };

export interface DialogSnapshot {
  readonly dialog: WindowDialog | null;
}

/** The one dialog (or the row menu) open over the window. */
export class DialogStore extends SnapshotStore<DialogSnapshot> {
  constructor() {
    super({ dialog: null });
  }

  openDialog(dialog: WindowDialog): void {
    this.update({ dialog });
  }

  closeDialog(): void {
    this.update({ dialog: null });
  }
}
