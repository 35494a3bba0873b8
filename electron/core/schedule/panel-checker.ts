import type { PanelCheck } from '../../../shared/types.ts';
import { PanelPass, type PanelPassOptions } from './panel-pass.ts';

export type PanelCheckerOptions = Omit<PanelPassOptions<PanelCheck>, 'cancelled'>;

/** Session checks of many panels: a panel pass whose panels not read before a cancel answer CANCELLED. */
export class PanelChecker extends PanelPass<PanelCheck> {
  constructor(options: PanelCheckerOptions) {
    super({
      ...options,
      cancelled: (panelId, at) => ({
        panelId,
        checkedAt: at.toISOString(),
        ok: false,
        error: { code: 'CANCELLED', message: 'The check was cancelled before this panel was read.' },
      }),
    });
  }
}
