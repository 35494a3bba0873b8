import { isPanelApiFailure, type PanelBridge } from '../shared/bridge.ts';
import { INTERNAL_MESSAGE, type ErrorInfo } from '../shared/errors.ts';

declare global {
  interface Window {
    /** Installed by the preload (or by the browser tests through the same bridge function). */
    readonly panelApi?: PanelBridge;
  }
}

export function getPanelApi(): PanelBridge | null {
  return window.panelApi ?? null;
}

/** What a failed call says, whatever it rejected with. */
export function failureInfo(caught: unknown): ErrorInfo {
  if (isPanelApiFailure(caught)) {
    return caught.certificate
      ? { code: caught.code, message: caught.message, certificate: caught.certificate }
      : { code: caught.code, message: caught.message };
  }
  return { code: 'INTERNAL', message: INTERNAL_MESSAGE };
}
