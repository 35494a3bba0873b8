import type { PanelCheck } from '../../../shared/types.ts';
import { BoundedPass, type BoundedPassOptions } from './bounded-pass.ts';

export type PanelCheckerOptions = Omit<BoundedPassOptions<PanelCheck>, 'cancelled'>;

/** Session checks of many panels: a bounded pass whose panels not read before a cancel answer CANCELLED. */
export class PanelChecker extends BoundedPass<PanelCheck> {
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
